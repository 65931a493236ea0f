/// The few transcendental functions scenes need, in plain IEEE arithmetic so that a scene
/// gives the same bytes on every machine (libm implementations differ in the last bit,
/// which can flip a rounded pixel). Accurate to about 1e-14, far beyond what rendering needs.
public enum PortableMath {
    private static let halfPiHigh = 1.570_796_326_734_125_6       // π/2 to 33 bits
    private static let halfPiLow = 6.077_100_506_506_192_6e-11    // π/2 − halfPiHigh
    private static let twoOverPi = 0.636_619_772_367_581_4
    private static let ln2 = 0.693_147_180_559_945_3

    /// sin(x) for |x| up to about 1e6.
    public static func sin(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant & 3 {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// cos(x) for |x| up to about 1e6.
    public static func cos(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant & 3 {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// The natural logarithm of a positive, finite x.
    public static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log needs a positive finite argument")
        // x = m · 2^e with m in [√½, √2): log x = e·ln 2 + 2·atanh((m − 1)/(m + 1)).
        var m = x.significand
        var e = Double(x.exponent)
        if m > 1.414_213_562_373_095_1 {
            m *= 0.5
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var series = 1.0 / 21
        for denominator in stride(from: 19.0, through: 1, by: -2) {
            series = series * s2 + 1 / denominator
        }
        return e * ln2 + 2 * s * series
    }

    /// x = r + quadrant·π/2 with |r| ≤ π/4 (Cody–Waite reduction in two parts).
    private static func reduce(_ x: Double) -> (Double, Int) {
        let k = (x * twoOverPi).rounded()
        let r = (x - k * halfPiHigh) - k * halfPiLow
        return (r, Int(k))
    }

    /// Taylor series of sin on [−π/4, π/4], to x¹⁷.
    private static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0
        for n in stride(from: 17.0, through: 3, by: -2) {
            term = 1 - term * r2 / (n * (n - 1))
        }
        return r * term
    }

    /// Taylor series of cos on [−π/4, π/4], to x¹⁸.
    private static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0
        for n in stride(from: 18.0, through: 2, by: -2) {
            term = 1 - term * r2 / (n * (n - 1))
        }
        return term
    }
}
