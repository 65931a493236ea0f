import TrajectoryEvaluation

/// The moment a frame shows: its index, its presentation time (the middle of the exposure)
/// and how long the shutter is open around it.
public struct FrameMoment: Sendable, Hashable {
    public var index: Int
    /// Seconds.
    public var time: Double
    /// Seconds the shutter is open, centred on `time`.
    public var exposure: Double

    public init(index: Int, time: Double, exposure: Double) {
        self.index = index
        self.time = time
        self.exposure = exposure
    }

    /// The time of sub-sample `k` of `count`, spread evenly over the exposure (midpoints).
    @inline(__always)
    public func sampleTime(_ k: Int, of count: Int) -> Double {
        time + exposure * ((Double(k) + 0.5) / Double(count) - 0.5)
    }
}

/// Anything in a scene other than the backdrop and the balls in flight: distractors
/// (walkers, lights, foliage…) and occluders (a pole the ball passes behind).
///
/// An actor must be a pure function of time: a frame is rendered on demand, without the
/// frames before it, so nothing may depend on what was drawn earlier.
public protocol SceneActor: Sendable {
    /// True for actors drawn after the balls, which hide them (a pole in front).
    var isInFrontOfBalls: Bool { get }

    /// Paints the actor as it is at `moment`, in scene coordinates (the canvas adds the
    /// camera offset).
    func draw(on canvas: inout Canvas, at moment: FrameMoment)

    /// How the truth file names this actor and when it is on screen; nil for scenery
    /// that does not move.
    func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor?

    /// The fraction (0…1) of a ball of `radius` centred at `center` (scene coordinates)
    /// that this actor hides at `time`. Only actors in front of the balls hide them.
    func hiddenFraction(ofBallAt center: SIMD2<Double>, radius: Double, time: Double) -> Double
}

extension SceneActor {
    public var isInFrontOfBalls: Bool { false }

    public func hiddenFraction(ofBallAt center: SIMD2<Double>, radius: Double, time: Double) -> Double { 0 }
}

/// Fraction of the disc at `center` with `radius` for which `inside` holds, estimated on a
/// 16 × 16 grid of points (plenty to decide "mostly hidden").
func discFraction(center: SIMD2<Double>, radius: Double, where inside: (SIMD2<Double>) -> Bool) -> Double {
    var total = 0
    var hits = 0
    let steps = 16
    for j in 0..<steps {
        for i in 0..<steps {
            let u = (Double(i) + 0.5) / Double(steps) * 2 - 1
            let v = (Double(j) + 0.5) / Double(steps) * 2 - 1
            guard u * u + v * v <= 1 else { continue }
            total += 1
            if inside(center + radius * SIMD2(u, v)) { hits += 1 }
        }
    }
    return Double(hits) / Double(total)
}

/// The first and last frame at which `isOnScreen(time)` holds, as a truth distractor entry.
func distractorRecord(
    kind: String, frameCount: Int, frameRate: Double, isOnScreen: (Double) -> Bool
) -> GroundTruth.Distractor? {
    let frames = (0..<frameCount).filter { isOnScreen(Double($0) / frameRate) }
    guard let first = frames.first, let last = frames.last else { return nil }
    return GroundTruth.Distractor(kind: kind, firstFrame: first, lastFrame: last)
}

extension GroundTruth.Distractor {
    /// A distractor on screen from the first frame to the last.
    static func onScreenThroughout(_ kind: String, frameCount: Int) -> Self {
        Self(kind: kind, firstFrame: 0, lastFrame: frameCount - 1)
    }
}
