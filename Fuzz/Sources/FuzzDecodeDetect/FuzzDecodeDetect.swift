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
            // At most 20 analysed frames: a run stopped early on a file returns only once its
            // decoding thread has stopped, so nothing of this input runs into the next one.
            let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
            let summary = try VideoTrajectoryDetection.run(uri: path, request: request) { frame in
                for observation in frame.observations {
                    precondition(observation.confidence >= 0 && observation.confidence <= 1)
                }
                if frame.stamp.index >= 19 { throw EnoughFrames() }
            }
            precondition(summary.framesAnalysed <= summary.framesDecoded)
            // The report divides by the size: a stream that states none takes its frames'.
            precondition(summary.info.width > 0 && summary.info.height > 0, "no frame size in \(summary.info)")
        } catch is EnoughFrames {
            // Stopped after 20 frames, as planned.
        } catch is VideoError {
            // Bytes that are no video (or too large a one): the error the user would see.
        } catch {
            fatalError("unexpected error: \(error)")
        }
    }
}

/// Thrown by the frame callback to end a run after 20 frames.
private struct EnoughFrames: Error {}
