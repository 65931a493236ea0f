import Benchmark
import SampleFrames
import TrajectoryKit

// The blob detector on frames decoded beforehand, one frame per iteration: at full size, and
// shrunk twice in each direction (`analysisReduction` 2, what a DetectTrajectoriesRequest does
// with 1080p by default); and its two whole-frame vector stages on their own, to show where a
// frame's time goes.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .perFrame

    for clip in BenchmarkClip.all {
        Benchmark("BlobDetector.detect \(clip.label)") { _, run in
            run.detectNext()
        } setup: {
            try DetectorRun(clip)
        }

        Benchmark("BlobDetector.detect half size \(clip.label)") { _, run in
            run.detectNext()
        } setup: {
            try DetectorRun(clip, analysisReduction: 2)
        }

        Benchmark("BinomialSmoother.smooth \(clip.label)") { _, stages in
            stages.smoothNext()
        } setup: {
            try DetectorStages(clip)
        }

        Benchmark("FrameDifferencing.minimumAbsoluteDifference \(clip.label)") { _, stages in
            stages.differenceNext()
        } setup: {
            try DetectorStages(clip)
        }
    }
}

/// A detector fed a clip's frames in a loop. Setup runs it over the whole clip twice, so the
/// timed frames find its buffers sized (only the second pass meets the cut from the last frame
/// back to the first, whose motion image holds the largest regions of the cycle): from then on
/// it should allocate nothing.
final class DetectorRun {
    private var frames: FrameCycle
    private var detector = BlobDetector()

    init(_ clip: BenchmarkClip, analysisReduction: Int = 1) throws {
        frames = FrameCycle(try DecodedClip(clip))
        detector.configuration.analysisReduction = analysisReduction
        for _ in 0..<(2 * frames.count) { detectNext() }
    }

    func detectNext() {
        blackHole(detector.detect(frames.next().image))
    }
}

/// The detector's smoothing and differencing stages, each run alone over a clip's frames with
/// output buffers made in setup.
final class DetectorStages {
    private let clip: DecodedClip
    private var position = 0
    private var smoother = BinomialSmoother()
    private var output: [UInt8]

    init(_ clip: BenchmarkClip) throws {
        self.clip = try DecodedClip(clip)
        output = [UInt8](repeating: 0, count: self.clip.frames[0].pixels.count)
        smoothNext()  // the smoother sizes its row buffer on its first frame
    }

    func smoothNext() {
        let image = clip.frames[nextIndex()]
        withOutput { destination in
            smoother.smooth(image.pixels.span, layout: image.layout, into: &destination, destinationBytesPerRow: image.width)
        }
    }

    func differenceNext() {
        let index = nextIndex()
        let current = clip.frames[index], oneBefore = clip.frames[index - 1]
        let twoBefore = clip.frames[index - 2], threeBefore = clip.frames[index - 3]
        withOutput { motion in
            FrameDifferencing.minimumAbsoluteDifference(
                current: current.pixels.span, oneBefore: oneBefore.pixels.span, twoBefore: twoBefore.pixels.span,
                threeBefore: threeBefore.pixels.span, layout: current.layout, into: &motion)
        }
    }

    /// Lends the output buffer as a mutable span. A span of a class's stored array cannot
    /// outlive the access to it, so the buffer is moved out for the call (no copy).
    private func withOutput(_ body: (inout MutableSpan<UInt8>) -> Void) {
        var buffer: [UInt8] = []
        swap(&buffer, &output)
        defer { swap(&buffer, &output) }
        var span = buffer.mutableSpan
        body(&span)
    }

    /// The next frame that has three frames before it: the fourth of the clip to the last, in a loop.
    private func nextIndex() -> Int {
        if position < 3 || position >= clip.frames.count { position = 3 }
        defer { position += 1 }
        return position
    }
}
