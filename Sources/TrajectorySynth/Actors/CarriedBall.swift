import TrajectoryEvaluation

/// A person swinging a ball in their hand, never letting go: ball and arm move together
/// along arcs that over a few frames can look like a flight, but are not free fall.
public struct CarriedBall: SceneActor {
    public var figure: HumanFigure
    public var ball: BallAppearance
    /// Scene x of the pelvis at time 0, and how fast the person drifts (pixels per second).
    public var startX: Double
    public var drift: Double
    public var groundY: Double
    /// Swings per second, the arm's mean angle and half its sweep (radians from straight
    /// down, positive forward).
    public var swingFrequency: Double
    public var swingCentre: Double
    public var swingAmplitude: Double
    public var phase: Double
    public var frameWidth: Double

    public init(
        figure: HumanFigure, ball: BallAppearance, startX: Double, drift: Double, groundY: Double,
        swingFrequency: Double, swingCentre: Double, swingAmplitude: Double, phase: Double, frameWidth: Double
    ) {
        self.figure = figure
        self.ball = ball
        self.startX = startX
        self.drift = drift
        self.groundY = groundY
        self.swingFrequency = swingFrequency
        self.swingCentre = swingCentre
        self.swingAmplitude = swingAmplitude
        self.phase = phase
        self.frameWidth = frameWidth
    }

    public func pose(at time: Double) -> HumanFigure.Pose {
        let angle = 2 * Double.pi * swingFrequency * time + phase
        let swing = PortableMath.sin(angle)
        // The elbow flexes as the arm comes up, so the hand's path is no circle either.
        let arm = HumanFigure.Limb(upper: swingCentre + swingAmplitude * swing, bend: 0.25 + 0.45 * (1 + swing) / 2)
        let stance = HumanFigure.Limb(upper: 0.1, bend: 0.05)
        return HumanFigure.Pose(
            x: startX + drift * time, groundY: groundY, nearLeg: stance,
            farLeg: HumanFigure.Limb(upper: -0.1, bend: 0.05), nearArm: arm,
            farArm: HumanFigure.Limb(upper: -0.15 + 0.1 * swing, bend: 0.3), lean: 0.08 * swing)
    }

    /// The ball's centre at `time`: held in the near hand.
    public func ballCenter(at time: Double) -> SIMD2<Double> {
        figure.nearHand(pose(at: time)) + SIMD2(0, -0.4 * ball.radius)
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        figure.draw(pose(at: moment.time), on: &canvas)
        drawMovingBall(ball, on: &canvas, at: moment) { ballCenter(at: $0) }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        distractorRecord(kind: "carried-ball", frameCount: frameCount, frameRate: frameRate) { time in
            let reach = figure.horizontalReach(pose(at: time))
            return reach.upperBound > 0 && reach.lowerBound < frameWidth
        }
    }
}
