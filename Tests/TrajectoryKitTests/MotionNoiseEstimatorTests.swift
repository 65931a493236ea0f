import Testing

@testable import TrajectoryKit

/// The noise estimate's histogram (eight bytes read at a time, into four interleaved
/// histograms) against a plain count of the same sampled rows, written from its definition.
@Suite struct MotionNoiseEstimatorTests {
    /// A width that leaves a tail of 3 bytes after the 8-byte steps, padded rows, and enough
    /// pixels that only every third row is sampled.
    static let layout = PlaneLayout(width: 1283, height: 97, bytesPerRow: 1296)

    @Test("σ and the mean still change come from exactly the pixels of the sampled rows")
    func countsEverySampledPixel() {
        let layout = Self.layout
        var generator = SeededGenerator(seed: 7)
        // Small changes, as noise gives, with a few large ones; the padding holds 255s, which
        // would pull the median up if they were counted.
        var motion = [UInt8](repeating: 255, count: layout.minimumByteCount)
        for row in 0..<layout.height {
            for column in 0..<layout.width {
                let noise = abs(generator.nextGaussian()) * 3
                motion[row * layout.bytesPerRow + column] =
                    UInt8.random(in: 0..<50, using: &generator) == 0 ? 200 : UInt8(min(noise.rounded(), 255))
            }
        }

        var estimator = MotionNoiseEstimator()
        let sigma = estimator.noiseSigma(of: motion.span, layout: layout)

        var histogram = [Int](repeating: 0, count: 256)
        let rows = Array(MotionNoiseEstimatorTests.sampledRows(layout))
        #expect(rows.count > 1 && rows.count < layout.height, "only some rows should be sampled")
        for row in rows {
            for column in 0..<layout.width { histogram[Int(motion[row * layout.bytesPerRow + column])] += 1 }
        }
        #expect(sigma == Self.median(of: histogram) / MotionNoiseEstimator.medianPerSigma)
        let still = histogram[0..<10].enumerated().reduce(into: (count: 0, sum: 0)) { $0.count += $1.element; $0.sum += $1.offset * $1.element }
        #expect(estimator.meanChange(below: 10) == Double(still.sum) / Double(still.count))
    }

    /// The rows the estimator samples: about `targetSampleCount` pixels, evenly spread.
    private static func sampledRows(_ layout: PlaneLayout) -> StrideTo<Int> {
        let step = max(1, layout.width * layout.height / MotionNoiseEstimator.targetSampleCount)
        return stride(from: step / 2, to: layout.height, by: step)
    }

    /// The median of the counted values, level v ≥ 1 standing for [v − ½, v + ½) and level 0
    /// for [0, ½), interpolated inside its bin.
    private static func median(of histogram: [Int]) -> Double {
        let half = Double(histogram.reduce(0, +)) / 2
        var below = 0
        for (level, count) in histogram.enumerated() {
            if Double(below + count) >= half, count > 0 {
                let start = level == 0 ? 0 : Double(level) - 0.5
                return start + (level == 0 ? 0.5 : 1) * (half - Double(below)) / Double(count)
            }
            below += count
        }
        return 255
    }
}
