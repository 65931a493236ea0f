import Foundation
import Synchronization
import Testing
import TrajectoryKit
import TrajectoryVideo

#if canImport(Glibc)
import Glibc
#endif

/// A run ended by its `RunStopper` returns its summary, marked stopped, with the frames it
/// analysed: what Ctrl-C on `detect` relies on to keep the results.
@Suite("Stopping a run with a RunStopper")
struct RunStopperTests {
    static let frameCount = 20

    /// A Matroska clip of a moving square on a pipe that is then left open and silent.
    private static func silentPipe() throws -> PipeEnds {
        let directory = try TemporaryDirectory()
        // Matroska hands over each frame as soon as its bytes are in.
        let path = directory.file("clip.mkv")
        try MovingSquare().write(to: path, count: frameCount, settings: quickSettings())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let ends = try PipeEnds()
        Thread { ends.write(bytes, thenClose: false) }.start()
        return ends
    }

    /// A run over the pipe `ends` reads, with `stopper`, calling `onFrame` for each analysed
    /// frame; nil when it has not returned within 20 s.
    private static func run(
        reading ends: PipeEnds, stopper: RunStopper,
        onFrame: @escaping @Sendable (VideoTrajectoryDetection.AnalysedFrame) -> Void
    ) -> Result<VideoTrajectoryDetection.Summary, any Error>? {
        outcome(within: 20) {
            let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
            return try VideoTrajectoryDetection.run(uri: "pipe:\(ends.readEnd)", request: request, stopper: stopper, onAnalysedFrame: onFrame)
        }
    }

    @Test("a stop asked for during a frame ends the run after that frame, with its summary")
    func stopDuringAFrame() throws {
        let ends = try Self.silentPipe()
        defer { close(ends.writeEnd) }
        let stopper = RunStopper()
        let analysed = Mutex(0)
        let result = Self.run(reading: ends, stopper: stopper) { frame in
            analysed.withLock { $0 += 1 }
            if frame.stamp.index == 9 { stopper.requestStop() }
        }
        let summary = try #require(result, "the run did not return").get()
        #expect(summary.stoppedEarly)
        #expect(summary.framesDecoded == 10, "the frames taken, 0 to 9")
        #expect(summary.framesAnalysed == 10 && analysed.withLock { $0 } == 10)
        #expect(summary.warnings.last == "stopped early: the results cover the first 10 frames (up to 0.300 s)")
    }

    @Test("a stop asked for from another thread ends a run that waits on a silent stream")
    func stopWhileWaiting() throws {
        let ends = try Self.silentPipe()
        defer { close(ends.writeEnd) }
        let stopper = RunStopper()
        let analysed = Mutex(0)
        // Once the analysis has taken what the decoder let go of (it holds back a frame or two
        // until the stream's end), the run waits for a frame that never comes: stop it then.
        Thread {
            while analysed.withLock({ $0 }) < Self.frameCount - 2 { Thread.sleep(forTimeInterval: 0.01) }
            Thread.sleep(forTimeInterval: 0.5)
            stopper.requestStop()
        }.start()
        let result = Self.run(reading: ends, stopper: stopper) { _ in analysed.withLock { $0 += 1 } }
        // Before, the run waited for the stream's end.
        let summary = try #require(result, "the run waited for the silent stream").get()
        #expect(summary.stoppedEarly)
        #expect(summary.framesAnalysed == analysed.withLock { $0 })
        #expect(summary.framesAnalysed >= Self.frameCount - 2)
    }

    @Test("a run that reaches its end is not marked stopped, and a stopper asked first stops the next run before its video is open")
    func unusedAndEarlyStoppers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("clip.mkv")
        try MovingSquare().write(to: path, count: Self.frameCount, settings: quickSettings())
        let whole = try VideoTrajectoryDetection.run(
            uri: path, request: try DetectTrajectoriesRequest(trajectoryLength: 5), stopper: RunStopper()) { _ in }
        #expect(!whole.stoppedEarly && whole.framesDecoded == Self.frameCount)

        let stopper = RunStopper()
        stopper.requestStop()
        #expect(throws: VideoError(.stoppedBeforeOpening, uri: path)) {
            try VideoTrajectoryDetection.run(
                uri: path, request: try DetectTrajectoriesRequest(trajectoryLength: 5), stopper: stopper) { _ in }
        }
    }

    @Test("a stop asked for once the last frame is analysed leaves the run complete, not stopped")
    func stopAfterTheLastFrame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("clip.mkv")
        try MovingSquare().write(to: path, count: Self.frameCount, settings: quickSettings())
        let stopper = RunStopper()
        let summary = try VideoTrajectoryDetection.run(
            uri: path, request: try DetectTrajectoriesRequest(trajectoryLength: 5), stopper: stopper
        ) { frame in
            guard frame.stamp.index == Self.frameCount - 1 else { return }
            Thread.sleep(forTimeInterval: 0.5)  // for the decoding thread to reach the stream's end
            stopper.requestStop()
        }
        // Before, the stop marked it stopped early, with a warning that the results covered only
        // the first 20 frames: all there were.
        #expect(!summary.stoppedEarly)
        #expect(summary.framesDecoded == Self.frameCount && summary.framesAnalysed == Self.frameCount)
        #expect(!summary.warnings.contains { $0.hasPrefix("stopped early") }, "\(summary.warnings)")
    }

    @Test("a stop asked for while FFmpeg waits for a silent pipe to show what it is ends the run at once")
    func stopWhileOpening() throws {
        let ends = try PipeEnds()
        defer { close(ends.writeEnd) }
        let stopper = RunStopper()
        Thread {
            Thread.sleep(forTimeInterval: 0.5)
            stopper.requestStop()
        }.start()
        // Nothing is ever written: FFmpeg's probe waits in the pipe's read until the writer
        // closes it, and the run used to wait with it.
        let result = Self.run(reading: ends, stopper: stopper) { _ in }
        let outcome = try #require(result, "the run waited for the silent pipe")
        #expect(throws: VideoError(.stoppedBeforeOpening, uri: "pipe:\(ends.readEnd)")) { try outcome.get() }
    }

    @Test("a stop before the video is open and one before the first frame of a video without a stated size say which")
    func stopsBeforeAnythingReadDifferently() {
        let beforeOpening = VideoError(.stoppedBeforeOpening, uri: "x.h264")
        #expect(!beforeOpening.isStopBeforeFirstFrame)
        #expect(beforeOpening.description == "stopped before 'x.h264' was open: nothing was analysed")
        let beforeFirstFrame = VideoError(.stoppedBeforeOpening, uri: "x.h264", detail: VideoError.noFrameDecodedYet)
        #expect(beforeFirstFrame.isStopBeforeFirstFrame)
        #expect(beforeFirstFrame.description == "stopped before any frame of 'x.h264' was decoded: nothing was analysed")
    }
}
