import Benchmark
import Foundation
import SampleFrames
import TrajectoryVideo

// Decoding alone: VideoReader.nextFrame lending every frame's luma plane, on the clips the
// other suites analyse, so that decoding and analysis can be compared in one run.
//
// One iteration decodes a whole clip. Per-frame iterations would mislead here: threaded
// decoding runs ahead of the caller, so one frame is waited for and the next few are already
// there, and only the whole pass gives the rate. Opening the file is left out of the clock.
let benchmarks: @Sendable () -> Void = {
    for clip in BenchmarkClip.all {
        Benchmark(
            "VideoReader.nextFrame \(clip.label)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, framesPerSecond], timeUnits: .milliseconds,
                units: [.mallocCountTotal: .count], maxDuration: .seconds(5), maxIterations: 200)
        ) { benchmark in
            var reader = try clip.open()
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            // Reading one pixel shows the plane is there without timing a copy of it.
            while let pixel = try reader.nextFrame({ plane, _, _ in plane[0] }) { blackHole(pixel) }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            benchmark.stopMeasurement()
            benchmark.measurement(framesPerSecond, Int((Double(reader.framesRead) / seconds).rounded()))
        }
    }
}

/// Frames decoded per second over the whole clip: the rate the analysis has to keep up with.
let framesPerSecond = BenchmarkMetric.custom("Frames per second", polarity: .prefersLarger, useScalingFactor: false)
