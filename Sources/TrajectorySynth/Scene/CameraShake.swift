/// A hand-held camera: the whole picture moves by a few pixels, smoothly and randomly.
///
/// The offset follows a smooth random curve through a new random knot every
/// `knotInterval` seconds, in x and y independently, and is clamped to what the renderer's
/// margin allows (`Canvas.maximumCameraOffset`).
public struct CameraShake: Sendable, Hashable {
    /// Typical size of the offset, in pixels (0 for a camera on a tripod).
    public var amplitude: Double
    /// Seconds between the curve's random knots: smaller is jerkier.
    public var knotInterval: Double
    public var seed: UInt64

    public init(amplitude: Double, knotInterval: Double = 0.2, seed: UInt64) {
        precondition(amplitude >= 0 && knotInterval > 0)
        self.amplitude = amplitude
        self.knotInterval = knotInterval
        self.seed = seed
    }

    /// A camera that does not move.
    public static let steady = CameraShake(amplitude: 0, seed: 0)

    /// Where the camera has moved the picture at `time`: a scene point p shows at p + offset.
    public func offset(at time: Double) -> SIMD2<Double> {
        guard amplitude > 0 else { return .zero }
        let limit = Double(Canvas.maximumCameraOffset)
        let position = time / knotInterval
        let x = amplitude * SmoothRandomCurve(key: seed ^ 0xCA3E_0001).value(at: position)
        let y = amplitude * SmoothRandomCurve(key: seed ^ 0xCA3E_0002).value(at: position)
        return SIMD2(max(-limit, min(limit, x)), max(-limit, min(limit, y)))
    }
}
