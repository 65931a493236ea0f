/// A ball in free flight: how it looks and where it goes. Its flights are what a detector
/// must report.
public struct ThrownBall: Sendable, Hashable {
    public var appearance: BallAppearance
    public var path: BallPath

    public init(appearance: BallAppearance, path: BallPath) {
        self.appearance = appearance
        self.path = path
    }

    func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        drawMovingBall(appearance, on: &canvas, at: moment) { path.position(at: $0) }
    }
}

/// Paints a ball that follows `position(time)` (nil while absent), integrated over the
/// exposure with enough sub-samples that consecutive ones are at most half a pixel apart.
func drawMovingBall(
    _ appearance: BallAppearance, on canvas: inout Canvas, at moment: FrameMoment,
    position: (Double) -> SIMD2<Double>?
) {
    var travel = 0.0
    var previous: SIMD2<Double>?
    var present = false
    for k in 0..<5 {
        let current = position(moment.sampleTime(k, of: 5))
        if let a = previous, let b = current {
            let d = b - a
            travel += (d * d).sum().squareRoot()
        }
        present = present || current != nil
        previous = current
    }
    guard present else { return }
    // The probes span 4/5 of the exposure: scale up to the whole of it.
    let samples = max(1, min(1024, Int((travel * 1.25 / 0.5).rounded(.up)) + 1))
    canvas.paintBall(appearance, sampleCount: samples) { position(moment.sampleTime($0, of: samples)) }
}
