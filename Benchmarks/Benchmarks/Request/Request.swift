import Benchmark
import SampleFrames
import TrajectoryKit

// The whole per-frame analysis, detector and tracker, as a user runs it: a
// DetectTrajectoriesRequest performed through a SequenceRequestHandler on frames decoded
// beforehand, one frame per iteration.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .perFrame

    for clip in BenchmarkClip.all {
        Benchmark("DetectTrajectoriesRequest \(clip.label)") { _, run in
            try run.performNext()
        } setup: {
            try RequestRun(DecodedClip(clip))
        }
    }
    // A busy scene: about 230 moving regions a frame, which the detector measures whole on its
    // own thread and a helper thread together.
    Benchmark("DetectTrajectoriesRequest foliage-1 1280x720 rendered") { _, run in
        try run.performNext()
    } setup: {
        try RequestRun(DecodedClip(rendering: .foliage, seed: 1))
    }
}

/// A request with the `trajectories detect` defaults, performed on a clip's frames in a loop as
/// one endless stream. Setup runs it over the whole clip twice, so the timed frames find the
/// detector's buffers sized and the tracker in its steady state: the first pass starts with no
/// earlier frames, and only the second meets the cut from the last frame back to the first,
/// whose motion image holds the largest regions of the cycle.
final class RequestRun {
    private var frames: FrameCycle
    private let request: DetectTrajectoriesRequest
    /// Made once: an array literal in the call would allocate every frame.
    private let requests: [DetectTrajectoriesRequest]
    private let handler = SequenceRequestHandler()

    init(_ clip: DecodedClip) throws {
        frames = FrameCycle(clip)
        request = try DetectTrajectoriesRequest(frameAnalysisSpacing: 0, trajectoryLength: 10)
        requests = [request]
        for _ in 0..<(2 * frames.count) { try performNext() }
    }

    func performNext() throws {
        let frame = frames.next()
        try handler.perform(requests, on: frame.image, frame: frame.stamp)
        blackHole(request.results)
    }
}
