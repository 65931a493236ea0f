/// A seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64) whose output
/// depends only on its seed, on every machine and every Swift version.
///
/// The standard library's `random(in:using:)` helpers are deliberately not used: their
/// algorithms are not promised to stay the same, and a scene must be the same clip forever.
/// Draws are made with the methods here, all built from `next()` with plain arithmetic.
public struct SeededGenerator: Sendable, Hashable {
    private var state: (UInt64, UInt64, UInt64, UInt64)
    /// The second value of the last polar-method pair, kept for the next Gaussian draw.
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            return Hashing.mix(splitMix)
        }
        state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
    }

    public static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        lhs.state == rhs.state && lhs.spareGaussian == rhs.spareGaussian
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
        hasher.combine(spareGaussian)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = (state.1 &* 5).rotatedLeft(by: 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = state.3.rotatedLeft(by: 45)
        return result
    }

    /// A uniform draw in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform draw in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }

    /// A uniform integer in `range` (multiply-high reduction; its bias, below 2⁻⁵⁰ for the
    /// small ranges scenes use, does not matter here).
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next().multipliedFullWidth(by: span).high)
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        nextUnit() < probability
    }

    /// Plus or minus one, with equal odds.
    public mutating func sign() -> Double {
        next() >> 63 == 0 ? 1 : -1
    }

    /// One element of a non-empty array, uniformly.
    public mutating func element<T>(of array: [T]) -> T {
        precondition(!array.isEmpty, "cannot pick from an empty array")
        return array[integer(in: 0...(array.count - 1))]
    }

    /// A standard normal draw (Marsaglia's polar method, with `PortableMath.log` so that
    /// the result does not depend on the platform's libm).
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        while true {
            let u = 2 * nextUnit() - 1
            let v = 2 * nextUnit() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                let factor = (-2 * PortableMath.log(s) / s).squareRoot()
                spareGaussian = v * factor
                return u * factor
            }
        }
    }

    /// A normal draw with the given mean and standard deviation.
    public mutating func gaussian(mean: Double, deviation: Double) -> Double {
        mean + deviation * gaussian()
    }

    /// A new generator for one part of a scene, so that adding draws to one part does not
    /// change what the others get.
    public mutating func split() -> SeededGenerator {
        SeededGenerator(seed: next())
    }
}

/// Stateless randomness: a hash of integers, for things that must be random yet
/// computable for any frame on its own (a frame is rendered on demand, without its
/// predecessors).
public enum Hashing {
    /// SplitMix64's finaliser: a fast bijective mix of 64 bits.
    @inline(__always)
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A hash of a key and an index.
    @inline(__always)
    public static func hash(_ key: UInt64, _ index: Int) -> UInt64 {
        mix(key ^ mix(UInt64(bitPattern: Int64(index)) &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// A uniform value in [-1, 1) from a key and an index.
    @inline(__always)
    public static func signedUnit(_ key: UInt64, _ index: Int) -> Double {
        Double(hash(key, index) >> 11) * 0x1.0p-52 - 1
    }
}

/// A smooth random function of one variable: independent uniform values in [-1, 1) at the
/// integers, joined by Catmull–Rom splines. Used for camera shake, wind and flicker, which
/// must vary smoothly and be computable at any time without stepping through earlier ones.
public struct SmoothRandomCurve: Sendable, Hashable {
    public var key: UInt64

    public init(key: UInt64) {
        self.key = key
    }

    /// The curve's value at `position` (roughly within [-1, 1]).
    public func value(at position: Double) -> Double {
        let base = position.rounded(.down)
        let index = Int(base)
        let f = position - base
        let p0 = Hashing.signedUnit(key, index - 1)
        let p1 = Hashing.signedUnit(key, index)
        let p2 = Hashing.signedUnit(key, index + 1)
        let p3 = Hashing.signedUnit(key, index + 2)
        // Catmull–Rom: passes through p1 at f = 0 and p2 at f = 1 with continuous slope.
        let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
        let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
        let c = -0.5 * p0 + 0.5 * p2
        return ((a * f + b) * f + c) * f + p1
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
