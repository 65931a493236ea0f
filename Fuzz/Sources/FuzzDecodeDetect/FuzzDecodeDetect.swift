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
    /// One file per process in memory-backed /dev/shm: the reader opens paths, and a file, unlike
    /// a pipe, can be seeked, as MP4 needs.
    static let path = "/dev/shm/trajectories-fuzz-\(getpid()).bin"

    static func run(_ data: Data) {
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            fatalError("cannot write \(path)")
        }
        do {
            // A short trajectory length, so that the tracker's later stages are reached soon.
            // Every run goes to the input's end: one stopped early would return with its decoding
            // thread still at work, and a crash there would be blamed on the next input.
            // libFuzzer's -timeout and -max_len bound how long that takes.
            let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
            let summary = try VideoTrajectoryDetection.run(uri: path, request: request) { frame in
                for observation in frame.observations {
                    precondition(observation.confidence >= 0 && observation.confidence <= 1)
                }
            }
            precondition(summary.framesAnalysed <= summary.framesDecoded)
        } catch is VideoError {
            // Bytes that are no video (or too large a one): the error the user would see.
        } catch {
            fatalError("unexpected error: \(error)")
        }
    }
}
