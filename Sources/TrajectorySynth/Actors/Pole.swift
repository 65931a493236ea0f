import TrajectoryEvaluation

/// A vertical post in front of the balls (a goalpost, a lamp post, a net pole): a ball
/// passing behind it is hidden, and its truth points are marked invisible meanwhile.
public struct Pole: SceneActor {
    public var centerX: Double
    public var halfWidth: Double
    public var top: Double
    public var bottom: Double
    /// Grey level of the lit side; the other side is darker, like a painted cylinder.
    public var level: Float

    public init(centerX: Double, halfWidth: Double, top: Double, bottom: Double, level: Float) {
        precondition(halfWidth > 0 && bottom > top)
        self.centerX = centerX
        self.halfWidth = halfWidth
        self.top = top
        self.bottom = bottom
        self.level = level
    }

    public var isInFrontOfBalls: Bool { true }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        let (left, right, top, bottom, halfWidth, centerX, level) = (
            centerX - halfWidth, centerX + halfWidth, top, bottom, halfWidth, centerX, level
        )
        canvas.paint(minX: left, minY: top, maxX: right, maxY: bottom) { point in
            let overlapX = max(0, min(point.x + 0.5, right) - max(point.x - 0.5, left))
            let overlapY = max(0, min(point.y + 0.5, bottom) - max(point.y - 0.5, top))
            // Across a cylinder lit from the left: the normal turns away from the light.
            let across = (point.x - centerX) / halfWidth
            let shade = Float(0.75 - 0.3 * max(-1, min(1, across)))
            return (Float(min(1, overlapX) * min(1, overlapY)), level * shade)
        }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? { nil }

    public func hiddenFraction(ofBallAt center: SIMD2<Double>, radius: Double, time: Double) -> Double {
        discFraction(center: center, radius: radius) { p in
            abs(p.x - centerX) < halfWidth && p.y >= top && p.y <= bottom
        }
    }
}
