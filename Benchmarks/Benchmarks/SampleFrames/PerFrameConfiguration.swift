import Benchmark

extension Benchmark.Configuration {
    /// One iteration handles one frame, so every figure is per frame: wall clock, frames per
    /// second (throughput) and malloc calls. A frame of 720p or 1080p takes milliseconds, so a
    /// few seconds give a few hundred to a few thousand frames.
    public static var perFrame: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal],
            timeUnits: .microseconds,
            maxDuration: .seconds(4),
            maxIterations: 5_000)
    }
}
