import TrajectoryEvaluation

/// A person walking across the scene: legs and arms swing in opposition, the body bobs
/// twice per stride, the whole figure moves at a steady speed.
public struct Walker: SceneActor {
    public var figure: HumanFigure
    /// Scene x of the pelvis at time 0.
    public var startX: Double
    public var groundY: Double
    /// Pixels per second; the figure faces the way it walks.
    public var speed: Double
    /// Where in its stride the walker is at time 0, radians.
    public var phase: Double
    public var frameWidth: Double

    public init(figure: HumanFigure, startX: Double, groundY: Double, speed: Double, phase: Double, frameWidth: Double) {
        var facingFigure = figure
        facingFigure.facing = speed < 0 ? -1 : 1
        self.figure = facingFigure
        self.startX = startX
        self.groundY = groundY
        self.speed = speed
        self.phase = phase
        self.frameWidth = frameWidth
    }

    /// The posture at `time`. A step is about 0.4 body heights long, so the cadence
    /// follows from the speed.
    public func pose(at time: Double) -> HumanFigure.Pose {
        let stepsPerSecond = abs(speed) / (0.4 * figure.height)
        let angle = Double.pi * stepsPerSecond * time + phase
        let swing = PortableMath.sin(angle)
        let opposite = -swing
        func leg(_ s: Double, _ shifted: Double) -> HumanFigure.Limb {
            // The knee bends most while the leg swings forward through the air.
            HumanFigure.Limb(upper: 0.42 * s, bend: 0.08 + 0.55 * max(0, shifted))
        }
        let near = leg(swing, PortableMath.cos(angle))
        let far = leg(opposite, -PortableMath.cos(angle))
        return HumanFigure.Pose(
            x: startX + speed * time, groundY: groundY, nearLeg: near, farLeg: far,
            nearArm: HumanFigure.Limb(upper: -0.4 * swing, bend: 0.3 + 0.2 * max(0, -swing)),
            farArm: HumanFigure.Limb(upper: 0.4 * swing, bend: 0.3 + 0.2 * max(0, swing)),
            lean: 0.05)
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        figure.draw(pose(at: moment.time), on: &canvas)
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        distractorRecord(kind: "walker", frameCount: frameCount, frameRate: frameRate) { time in
            let reach = figure.horizontalReach(pose(at: time))
            return reach.upperBound > 0 && reach.lowerBound < frameWidth
        }
    }
}
