import TrajectoryEvaluation

/// A person who tosses a ball up and catches it: the hand carries the ball up to the
/// release, the ball flies (a `ThrownBall` in the script, with the same path), and the hand
/// meets it at the catch and carries it down again. The flight ends at the catch.
public struct Tosser: SceneActor {
    public var figure: HumanFigure
    public var ball: BallAppearance
    /// The ball's free flight, from the release to the catch (its last arc ends `.caught`).
    public var flight: BallPath
    public var x: Double
    public var groundY: Double
    /// Seconds the hand spends accelerating the ball before the release, and slowing it
    /// after the catch.
    public var windUp: Double
    public var frameWidth: Double

    public init(
        figure: HumanFigure, ball: BallAppearance, flight: BallPath, x: Double, groundY: Double, windUp: Double,
        frameWidth: Double
    ) {
        precondition(windUp > 0 && !flight.arcs.isEmpty)
        self.figure = figure
        self.ball = ball
        self.flight = flight
        self.x = x
        self.groundY = groundY
        self.windUp = windUp
        self.frameWidth = frameWidth
    }

    /// The standing posture: the near arm is placed by `handPosition(at:)`.
    public var pose: HumanFigure.Pose {
        HumanFigure.Pose(
            x: x, groundY: groundY, nearLeg: HumanFigure.Limb(upper: 0.08, bend: 0.05),
            farLeg: HumanFigure.Limb(upper: -0.08, bend: 0.05), nearArm: HumanFigure.Limb(upper: 0, bend: 0),
            farArm: HumanFigure.Limb(upper: -0.1, bend: 0.35))
    }

    /// Offset from the hand to the centre of the ball it holds (the ball sits on the palm).
    private var grip: SIMD2<Double> { SIMD2(0, -0.6 * ball.radius) }

    /// Where the hand rests, forearm forward at waist height.
    private var restingHand: SIMD2<Double> {
        figure.nearShoulder(pose) + figure.height * SIMD2(0.13 * figure.facing, 0.2)
    }

    private var release: (time: Double, hand: SIMD2<Double>, velocity: SIMD2<Double>) {
        let arc = flight.arcs[0]
        return (arc.startTime, arc.start - grip, arc.velocity)
    }

    private var caught: (time: Double, hand: SIMD2<Double>, velocity: SIMD2<Double>)? {
        guard let last = flight.arcs.last, last.ending == .caught else { return nil }
        return (last.endTime, last.endPosition - grip, last.velocity(at: last.endTime))
    }

    /// The hand's position at `time`: Hermite blends between rest, release and catch, so
    /// that it moves with the ball's own velocity at the release and at the catch.
    public func handPosition(at time: Double) -> SIMD2<Double> {
        let rest = restingHand
        let (releaseTime, releaseHand, releaseVelocity) = release
        if time < releaseTime {
            return hermite(from: rest, .zero, to: releaseHand, releaseVelocity, start: releaseTime - windUp, at: time)
        }
        guard let (catchTime, catchHand, catchVelocity) = caught else {
            return hermite(from: releaseHand, releaseVelocity * 0.3, to: rest, .zero, start: releaseTime, at: time)
        }
        if time >= catchTime {
            return hermite(from: catchHand, catchVelocity, to: rest, .zero, start: catchTime, at: time)
        }
        // Between: the hand drops back after the release, then rises to meet the ball.
        let middle = (releaseTime + catchTime) / 2
        if time < middle {
            let span = min(windUp, middle - releaseTime)
            return hermite(from: releaseHand, releaseVelocity * 0.3, to: rest, .zero, start: releaseTime, duration: span, at: time)
        }
        let span = min(windUp, catchTime - middle)
        return hermite(from: rest, .zero, to: catchHand, catchVelocity * 0.5, start: catchTime - span, duration: span, at: time)
    }

    /// Cubic Hermite from (p0, v0) at `start` to (p1, v1) at `start + duration` (the wind-up
    /// by default), holding the end points outside that interval.
    private func hermite(
        from p0: SIMD2<Double>, _ v0: SIMD2<Double>, to p1: SIMD2<Double>, _ v1: SIMD2<Double>, start: Double,
        duration: Double? = nil, at time: Double
    ) -> SIMD2<Double> {
        let span = duration ?? windUp
        let s = max(0, min(1, (time - start) / span))
        let s2 = s * s
        let s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1
        let h10 = s3 - 2 * s2 + s
        let h01 = -2 * s3 + 3 * s2
        let h11 = s3 - s2
        return h00 * p0 + h10 * span * v0 + h01 * p1 + h11 * span * v1
    }

    /// The ball's centre while held (nil while it flies: the `ThrownBall` draws it then).
    public func heldBallCenter(at time: Double) -> SIMD2<Double>? {
        if time >= release.time, caught.map({ time <= $0.time }) ?? true { return nil }
        return handPosition(at: time) + grip
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        figure.draw(pose, on: &canvas, nearHand: handPosition(at: moment.time))
        drawMovingBall(ball, on: &canvas, at: moment) { heldBallCenter(at: $0) }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        distractorRecord(kind: "tosser", frameCount: frameCount, frameRate: frameRate) { _ in
            let reach = figure.horizontalReach(pose)
            return reach.upperBound > 0 && reach.lowerBound < frameWidth
        }
    }
}
