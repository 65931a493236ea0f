import Benchmark
import Foundation
import SampleFrames
import TrajectoryKit
import TrajectoryVideo

// The whole pipeline as `trajectories detect` runs it: VideoTrajectoryDetection.run decoding a
// clip on its own thread while the request (detector and tracker) analyses every frame, with
// the command's defaults. One iteration is one whole clip, opening the file included; compare
// its frames per second with the Decode suite's in the same run.
let benchmarks: @Sendable () -> Void = {
    for clip in BenchmarkClip.all {
        Benchmark(
            "VideoTrajectoryDetection.run \(clip.label)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, framesPerSecond], timeUnits: .milliseconds,
                units: [.mallocCountTotal: .count], maxDuration: .seconds(5), maxIterations: 100)
        ) { benchmark in
            let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
            var observations = 0
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            let summary = try VideoTrajectoryDetection.run(uri: clip.path, request: request) { frame in
                observations += frame.observations.count
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            benchmark.stopMeasurement()
            blackHole(observations)
            benchmark.measurement(framesPerSecond, Int((Double(summary.framesDecoded) / seconds).rounded()))
        }
    }
}

/// Frames decoded and analysed per second over the whole clip.
let framesPerSecond = BenchmarkMetric.custom("Frames per second", polarity: .prefersLarger, useScalingFactor: false)
