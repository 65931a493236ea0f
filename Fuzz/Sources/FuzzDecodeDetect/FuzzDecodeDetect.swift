import Foundation
import TrajectoryKit
import TrajectoryVideo

/// libFuzzer's entry point: the bytes are taken as a video file and go the whole way a user's
/// file goes, FFmpeg's demuxer and decoder, the blob detector and the tracker. Any outcome but
/// a crash, a hang or unbounded memory is fine: a `VideoError` for bytes that are no video,
/// warnings for damaged ones.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeDetect(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.run(Data(bytes: bytes, count: count))
    return 0
}

enum FuzzInput {
    /// Analysed frames after which an input has shown what it can do; a longer run only repeats
    /// the same code and slows the fuzzer down.
    static let framesAnalysed = 20

    /// One file per process in memory-backed /dev/shm: the reader opens paths, and a file, unlike
    /// a pipe, can be seeked, as MP4 needs.
    static let path = "/dev/shm/trajectories-fuzz-\(getpid()).bin"

    /// Stops a run early, once enough frames were analysed.
    struct Enough: Error {}

    static func run(_ data: Data) {
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            fatalError("cannot write \(path)")
        }
        do {
            // A short trajectory length, so that few frames reach the tracker's later stages.
            let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
            var analysed = 0
            let summary = try VideoTrajectoryDetection.run(uri: path, request: request) { frame in
                for observation in frame.observations {
                    precondition(observation.confidence >= 0 && observation.confidence <= 1)
                }
                analysed += 1
                if analysed >= framesAnalysed { throw Enough() }
            }
            precondition(summary.framesAnalysed <= summary.framesDecoded)
        } catch is VideoError {
            // Bytes that are no video (or too large a one): the error the user would see.
        } catch is Enough {
        } catch {
            fatalError("unexpected error: \(error)")
        }
    }
}
