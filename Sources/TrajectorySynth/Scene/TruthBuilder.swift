import TrajectoryEvaluation

/// Derives the ground truth from a script: the physics of its balls, cut into flights the
/// way a detector should report them, and the list of its distractors.
///
/// A flight is a maximal run of frames within one arc (bounces cut arcs) in which the ball
/// overlaps the frame; a ball that goes out through the top and falls back in therefore
/// makes two flights. Points are the ball's centre at each frame's time, as displayed
/// (camera offset included); a point is invisible while more than half the ball is outside
/// the frame or hidden behind an actor in front of it.
struct TruthBuilder {
    let script: SceneScript

    func groundTruth() -> GroundTruth {
        var found: [(ball: Int, radius: Double, points: [GroundTruth.Point])] = []
        for (ballIndex, ball) in script.balls.enumerated() {
            for points in flights(of: ball) {
                found.append((ballIndex, ball.appearance.radius, points))
            }
        }
        found.sort { ($0.points[0].frame, $0.ball) < ($1.points[0].frame, $1.ball) }
        let flights = found.enumerated().map { id, flight in
            GroundTruth.Flight(id: id, radius: flight.radius, points: flight.points)
        }
        let distractors = script.actors.compactMap {
            $0.distractor(frameCount: script.frameCount, frameRate: script.frameRate)
        }
        return GroundTruth(
            scene: script.name, seed: script.seed, width: script.width, height: script.height,
            frameRate: script.frameRate, frameCount: script.frameCount, flights: flights,
            distractors: distractors)
    }

    /// The flights of one ball, each as its points in frame order.
    private func flights(of ball: ThrownBall) -> [[GroundTruth.Point]] {
        var result: [[GroundTruth.Point]] = []
        var current: [GroundTruth.Point] = []
        var currentArc: Int?
        for frame in 0..<script.frameCount {
            let time = script.time(ofFrame: frame)
            let arcIndex = ball.path.arcIndex(at: time)
            let sample = arcIndex.flatMap { point(of: ball, arc: ball.path.arcs[$0], frame: frame, time: time) }
            if sample == nil || arcIndex != currentArc {
                if !current.isEmpty { result.append(current) }
                current = []
            }
            currentArc = arcIndex
            if let sample { current.append(sample) }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The ball's truth point at one frame, or nil when no part of it is in the frame.
    private func point(of ball: ThrownBall, arc: BallisticArc, frame: Int, time: Double) -> GroundTruth.Point? {
        let radius = ball.appearance.radius
        let scenePosition = arc.position(at: time)
        let shown = scenePosition + script.camera.offset(at: time)
        let width = Double(script.width)
        let height = Double(script.height)
        guard shown.x + radius > 0, shown.x - radius < width, shown.y + radius > 0, shown.y - radius < height
        else { return nil }
        let inside = discFraction(center: shown, radius: radius) { p in
            p.x >= 0 && p.x < width && p.y >= 0 && p.y < height
        }
        var hidden = 0.0
        for actor in script.actors where actor.isInFrontOfBalls {
            hidden = max(hidden, actor.hiddenFraction(ofBallAt: scenePosition, radius: radius, time: time))
        }
        return GroundTruth.Point(
            frame: frame, time: time, x: shown.x, y: shown.y, visible: inside >= 0.5 && hidden < 0.5)
    }
}
