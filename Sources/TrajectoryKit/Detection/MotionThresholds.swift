/// The change thresholds the detector applied to one frame, set from that frame's own noise.
public struct MotionThresholds: Sendable, Hashable {
    /// Estimated standard deviation, in grey levels, of the difference between two smoothed
    /// frames of a static scene: the unit in which the threshold factors are given.
    public var noiseSigma: Double
    /// Least change (grey levels) for a pixel to belong to a moving region.
    public var low: UInt8
    /// Least change that at least one pixel of a region must reach for the region to count.
    public var high: UInt8

    public init(noiseSigma: Double, low: UInt8, high: UInt8) {
        self.noiseSigma = noiseSigma
        self.low = low
        self.high = high
    }

    /// The thresholds for a frame whose noise is `noiseSigma`: each factor times the noise,
    /// but never below its floor, and `high` never below `low`.
    init(noiseSigma: Double, configuration: BlobDetector.Configuration) {
        func greyLevel(_ value: Double, floor: Int) -> UInt8 {
            UInt8(min(255, max(Double(floor), value.rounded())))
        }
        let low = greyLevel(configuration.lowThresholdFactor * noiseSigma, floor: configuration.minimumLowThreshold)
        let high = greyLevel(configuration.highThresholdFactor * noiseSigma, floor: configuration.minimumHighThreshold)
        self.init(noiseSigma: noiseSigma, low: low, high: max(low, high))
    }
}

/// Estimates a frame's noise from the median of its motion image.
///
/// Most of a frame does not move, so the median change is set by noise alone, whatever a
/// ball or an arm does in a small part of it. For Gaussian noise of standard deviation σ per
/// frame difference, the median of min(|a − b|, |a − c|, |a − d|) (a … d one pixel in four
/// frames) is 0.2726 σ, which turns the median into σ. A sample of rows is enough for a median.
struct MotionNoiseEstimator {
    /// Median of the motion value ÷ σ of one frame difference, for Gaussian noise
    /// (simulated with 2 million samples; good to 3 digits).
    static let medianPerSigma = 0.2726
    /// Rows are sampled so that about this many pixels are counted.
    static let targetSampleCount = 40_000

    /// Four histograms of the sampled motion values side by side: successive pixels go to them
    /// in turn. Pixels of a still area mostly fall in the same bin, and counting them all in one
    /// histogram would make each increment wait for the last.
    private var histograms = [Int](repeating: 0, count: 4 * 256)

    /// σ of one frame difference, in grey levels, estimated from `motion`.
    mutating func noiseSigma(of motion: Span<UInt8>, layout: PlaneLayout) -> Double {
        for index in histograms.indices { histograms[index] = 0 }
        let rowStep = max(1, layout.width * layout.height / Self.targetSampleCount)
        var sampleCount = 0
        // The rows are read eight bytes at a time without a bounds check each: this covers them.
        precondition(motion.count >= layout.minimumByteCount, "the motion image must hold \(layout.minimumByteCount) bytes")
        let bytes = motion.bytes
        do {
            var counts = histograms.mutableSpan
            // Known here, the size lets the compiler drop the check of every count's index
            // (callgrind on walkers-1: 30M instructions with it, 36M without).
            precondition(counts.count == 4 * 256)
            for row in stride(from: rowStep / 2, to: layout.height, by: rowStep) {
                let rowStart = row * layout.bytesPerRow, rowEnd = rowStart + layout.width
                var index = rowStart
                // Which histogram a byte goes to does not matter to the counts, so the word's
                // byte order does not either.
                while index + 8 <= rowEnd {
                    let eight = bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: UInt64.self)
                    counts[Int(truncatingIfNeeded: eight & 0xFF)] += 1
                    counts[256 + Int(truncatingIfNeeded: eight >> 8 & 0xFF)] += 1
                    counts[512 + Int(truncatingIfNeeded: eight >> 16 & 0xFF)] += 1
                    counts[768 + Int(truncatingIfNeeded: eight >> 24 & 0xFF)] += 1
                    counts[Int(truncatingIfNeeded: eight >> 32 & 0xFF)] += 1
                    counts[256 + Int(truncatingIfNeeded: eight >> 40 & 0xFF)] += 1
                    counts[512 + Int(truncatingIfNeeded: eight >> 48 & 0xFF)] += 1
                    counts[768 + Int(truncatingIfNeeded: eight >> 56)] += 1
                    index += 8
                }
                while index < rowEnd {
                    counts[Int(motion[index])] += 1
                    index += 1
                }
                sampleCount += layout.width
            }
        }
        return median(ofSamples: sampleCount) / Self.medianPerSigma
    }

    /// How many of the pixels counted by the last `noiseSigma(of:layout:)` changed by `level`.
    private func count(ofLevel level: Int) -> Int {
        histograms[level] + histograms[256 + level] + histograms[512 + level] + histograms[768 + level]
    }

    /// Mean change of the pixels counted by the last `noiseSigma(of:layout:)` whose change is
    /// below `level`: what a still pixel adds to a sum of changes, on average.
    func meanChange(below level: UInt8) -> Double {
        var count = 0, sum = 0
        for change in 0..<Int(level) {
            let pixels = self.count(ofLevel: change)
            count += pixels
            sum += pixels * change
        }
        return count > 0 ? Double(sum) / Double(count) : 0
    }

    /// The median of the counted values, interpolated inside its histogram bin. Level v ≥ 1
    /// stands for the continuous values [v − ½, v + ½) and level 0 for [0, ½), so a frame with
    /// little noise (mostly zeros) still gets a small, non-zero median.
    private func median(ofSamples sampleCount: Int) -> Double {
        let half = Double(sampleCount) / 2
        var below = 0
        for level in 0..<256 {
            let count = count(ofLevel: level)
            if Double(below + count) >= half, count > 0 {
                let binStart = level == 0 ? 0 : Double(level) - 0.5
                let binWidth = level == 0 ? 0.5 : 1
                return binStart + binWidth * (half - Double(below)) / Double(count)
            }
            below += count
        }
        return 255
    }
}
