import Benchmark
import Foundation
import SampleFrames
import TrajectoryKit

// The tracker alone, one frame per iteration, fed made-up detections of a 1920×1080 stream at
// 60 frames/s: none, 5 and 50 blobs a frame. Balls fly on parabolas among blobs scattered at
// random, so the tracker both extends real flights and starts and drops tracks of noise. Their
// centres carry a detector's noise and, one frame in ten, a stray measured 3 px off, so that the
// tracker's allowance for strays runs too.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .perFrame

    for (blobsPerFrame, balls) in [(0, 0), (5, 2), (50, 5)] {
        Benchmark("TrajectoryTracker.update \(blobsPerFrame) blobs per frame") { _, run in
            run.updateNext()
        } setup: {
            try TrackerRun(blobsPerFrame: blobsPerFrame, balls: balls)
        }
    }
}

/// A tracker fed the same cycle of made-up frames over and over, as one endless stream. Setup
/// runs it over the whole cycle once, so the timed frames find it in its steady state.
final class TrackerRun {
    static let width = 1920, height = 1080, frameRate = 60.0
    /// Frames in one cycle: 10 s, each ball's flight restarting every second.
    static let cycleLength = 600

    private let frames: [[Blob]]
    private let tracker: TrajectoryTracker
    private var position = 0

    init(blobsPerFrame: Int, balls: Int) throws {
        var random = SplitMix64(seed: 1)
        frames = (0..<Self.cycleLength).map { frame in
            (0..<blobsPerFrame).map { index in
                index < balls
                    ? Self.ball(index, atFrame: frame, random: &random)
                    : Blob(
                        center: PixelPoint(
                            x: random.unit() * Double(Self.width), y: random.unit() * Double(Self.height)),
                        radius: 2 + random.unit() * 10, area: 20 + Int(random.unit() * 300),
                        contrast: 10 + random.unit() * 40, elongation: 1 + random.unit() * 2,
                        orientation: random.unit() * .pi - .pi / 2, solidity: 0.5 + random.unit() / 2)
            }
        }
        tracker = try TrajectoryTracker(trajectoryLength: 10)
        for _ in 0..<Self.cycleLength { updateNext() }
    }

    func updateNext() {
        let index = position % Self.cycleLength
        let stamp = FrameStamp(index: position, time: Double(position) / Self.frameRate)
        position += 1
        blackHole(tracker.update(blobs: frames[index], frame: stamp, frameWidth: Self.width, frameHeight: Self.height))
    }

    /// Ball `index` a second into its flight: thrown up and across, starting over every second,
    /// its centre off by up to ±1 px, and by 3 px more in one frame of every 10: a stray that
    /// every window of ten points holds.
    private static func ball(_ index: Int, atFrame frame: Int, random: inout SplitMix64) -> Blob {
        let t = Double(frame % Int(frameRate)) / frameRate
        let x = 150 + Double(index) * 250 + 600 * t + 2 * random.unit() - 1
        let stray = frame % 10 == 7 ? 3.0 : 0
        let y = 900 - 1400 * t + 0.5 * 2400 * t * t + 2 * random.unit() - 1 + stray
        return Blob(center: PixelPoint(x: x, y: y), radius: 8, area: 200, contrast: 60)
    }
}

/// A small seeded generator, so every run times the same frames.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    /// A number in [0, 1).
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}
