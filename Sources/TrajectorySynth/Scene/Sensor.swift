/// The camera's sensor: how long the shutter is open and how the picture degrades.
public struct Sensor: Sendable, Hashable {
    /// Exposure time as a fraction of the frame interval (0.5 = a 180° shutter).
    public var shutterFraction: Double
    /// Standard deviation of the noise at mid grey, in grey levels. Darker pixels get a
    /// little less and brighter ones a little more, as photon noise does.
    public var noiseDeviation: Double
    /// How much darker the corners are than the centre (lens vignetting), 0…1.
    public var vignetting: Double
    /// Frame-to-frame change of overall brightness (auto-exposure, mains flicker), as a
    /// fraction: each frame's gain is 1 ± up to this.
    public var flicker: Double

    public init(shutterFraction: Double = 0.5, noiseDeviation: Double = 2.5, vignetting: Double = 0.15, flicker: Double = 0) {
        precondition(shutterFraction > 0 && shutterFraction <= 1, "the shutter is open for part of a frame")
        precondition(noiseDeviation >= 0 && vignetting >= 0 && vignetting < 1 && flicker >= 0)
        self.shutterFraction = shutterFraction
        self.noiseDeviation = noiseDeviation
        self.vignetting = vignetting
        self.flicker = flicker
    }

    /// The same sensor without noise or flicker: for checking geometry against the truth.
    public var noiseless: Sensor {
        var copy = self
        copy.noiseDeviation = 0
        copy.flicker = 0
        return copy
    }
}

/// Turns the canvas into 8-bit luma the way a sensor does: vignetting, a frame gain,
/// Gaussian noise, rounding and clipping.
///
/// Noise costs one table look-up per pixel: 2¹⁶ standard-normal draws made once, indexed
/// by 16-bit slices of one fast random word per four pixels, scaled by a per-level
/// deviation table. Each frame's noise is seeded from the scene seed and the frame index,
/// so any frame can be rendered alone.
struct SensorStage: Sendable {
    private let sensor: Sensor
    private let seed: UInt64
    private let normalDraws: [Float]
    private let deviationByLevel: [Float]
    private let columnGain: [Float]
    private let rowGain: [Float]

    init(sensor: Sensor, seed: UInt64, width: Int, height: Int) {
        self.sensor = sensor
        self.seed = seed
        var generator = SeededGenerator(seed: seed ^ 0x5E45_0A11_0153_0000)
        normalDraws = (0..<65_536).map { _ in Float(generator.gaussian()) }
        deviationByLevel = (0..<256).map { level in
            // Read noise plus a photon term growing with the light: equal to
            // `noiseDeviation` at mid grey.
            Float(sensor.noiseDeviation * (0.4 + 0.6 * Double(level) / 128).squareRoot())
        }
        // cos⁴-like fall-off approximated separably: gain(x)·gain(y), 1 at the centre and
        // 1 − vignetting in the corners.
        let edgeGain = (1 - sensor.vignetting).squareRoot()
        func gains(_ count: Int) -> [Float] {
            (0..<count).map { index in
                let u = (Double(index) + 0.5) / Double(count) * 2 - 1
                return Float(1 - (1 - edgeGain) * u * u)
            }
        }
        columnGain = gains(width)
        rowGain = gains(height)
    }

    /// Develops `canvas` into `pixels` (same size, row-major) for frame `frameIndex`.
    func develop(_ canvas: Canvas, frameIndex: Int, into pixels: inout [UInt8]) {
        precondition(pixels.count == canvas.width * canvas.height, "image and canvas sizes differ")
        let width = canvas.width
        let frameGain = Float(1 + sensor.flicker * Hashing.signedUnit(seed ^ 0xF11C, frameIndex))
        var generator = SeededGenerator(seed: Hashing.hash(seed ^ 0x0015E, frameIndex))
        let noisy = sensor.noiseDeviation > 0
        canvas.pixels.withUnsafeBufferPointer { light in
            pixels.withUnsafeMutableBufferPointer { output in
                normalDraws.withUnsafeBufferPointer { normals in
                    deviationByLevel.withUnsafeBufferPointer { deviations in
                        columnGain.withUnsafeBufferPointer { columnGain in
                            for row in 0..<canvas.height {
                                let gain = rowGain[row] * frameGain
                                let base = row * width
                                var column = 0
                                while column < width {
                                    // One random word gives four 16-bit indices into the draws.
                                    var bits = noisy ? generator.next() : 0
                                    let end = min(column + 4, width)
                                    while column < end {
                                        var value = light[base + column] * gain * columnGain[column]
                                        if noisy {
                                            let level = Int(max(0, min(255, value)))
                                            value += normals[Int(truncatingIfNeeded: bits & 0xFFFF)] * deviations[level]
                                            bits >>= 16
                                        }
                                        output[base + column] = UInt8(max(0, min(255, value + 0.5)))
                                        column += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
