import TrajectoryEvaluation
import Testing
import TrajectorySynth

@Suite struct PhysicsTests {
    @Test(
        "in every flight x is linear and y quadratic in time with the scene's gravity (residual < 1e-6 px)",
        arguments: [CatalogScene.clean, .bounce, .multiBall, .walkers, .occluded, .hd60], [UInt64(1), 2, 3])
    func flightsAreBallistic(scene: CatalogScene, seed: UInt64) throws {
        let script = scene.script(seed: seed)
        let truth = script.groundTruth()
        for flight in truth.flights where flight.points.count >= 4 {
            let t = flight.points.map(\.time)
            let x = polynomialFit(t, flight.points.map(\.x), degree: 1)
            let y = polynomialFit(t, flight.points.map(\.y), degree: 2)
            #expect(x.maxResidual < 1e-6)
            #expect(y.maxResidual < 1e-6)
            #expect(abs(2 * y.coefficients[2] - script.gravity) < 1e-6 * script.gravity)
        }
    }

    @Test("a bounce ends one flight and starts the next where and when the ball touches the floor", arguments: [UInt64(1), 2, 3, 4])
    func bounceJunctionIsOnTheFloor(seed: UInt64) throws {
        let script = CatalogScene.bounce.script(seed: seed)
        let truth = script.groundTruth()
        let path = try #require(script.balls.first).path
        let bounces = path.arcs.filter { $0.ending == .bounce }.map(\.endTime)
        #expect(!bounces.isEmpty)
        let contactY = path.floorY - truth.flights[0].radius
        var checked = 0
        for (before, after) in zip(truth.flights, truth.flights.dropFirst()) {
            let end = before.points.last!.time
            let start = after.points.first!.time
            guard bounces.contains(where: { $0 > end && $0 <= start }), before.points.count >= 3, after.points.count >= 3
            else { continue }
            // Each flight's own parabola, extrapolated to the floor: the descending root of the
            // first and the ascending root of the second must coincide.
            let (xBefore, yBefore) = (fitLine(before), fitParabola(before))
            let (xAfter, yAfter) = (fitLine(after), fitParabola(after))
            let landing = try #require(yBefore.time(atHeight: contactY, descending: true))
            let takeOff = try #require(yAfter.time(atHeight: contactY, descending: false))
            #expect(abs(landing - takeOff) < 1e-6)
            #expect(abs(xBefore(landing) - xAfter(takeOff)) < 1e-6)
            checked += 1
        }
        #expect(checked >= 1)
    }

    @Test("a ball that goes out through the top and falls back in makes two flights of one arc")
    func leavingThroughTheTopSplitsTheFlight() {
        // Launched at 700 px/s upwards from y = 200: apex 350 px above, far beyond the top.
        let ball = flyingBall(start: SIMD2(100, 200), velocity: SIMD2(50, -700))
        let truth = quietScene(balls: [ball], frameCount: 60).groundTruth()
        #expect(truth.flights.count == 2)
        let gap = truth.flights[1].points.first!.frame - truth.flights[0].points.last!.frame
        #expect(gap > 1)
        // Each flight's edge point is the ball still overlapping the top edge.
        #expect(truth.flights[0].points.last!.y < 6)
        #expect(truth.flights[1].points.first!.y < 6)
    }

    @Test("a ball kicked from the floor has no flight before its launch, and its flight starts at it")
    func kickStartsTheFlight() {
        let path = BallPath(
            launchTime: 0.5, start: SIMD2(100, 194), velocity: SIMD2(120, -500), gravity: 700, radius: 6, floorY: 200,
            restitution: 0.3, minimumHop: 0.4, frame: SIMD2(320, 240), endTime: 3, restsBeforeLaunch: true)
        let ball = ThrownBall(appearance: BallAppearance(radius: 6, albedo: 230), path: path)
        let truth = quietScene(balls: [ball], frameCount: 90).groundTruth()
        #expect(truth.flights.first?.points.first?.frame == 15)
        // 500 px/s up under 700 px/s²: 1.43 s in the air, then a 0.43 s hop is at least 0.4 s.
        #expect(truth.flights.count == 2)
        #expect(path.arcs.map(\.ending) == [.bounce, .landing])
    }

    private func fitLine(_ flight: GroundTruth.Flight) -> (Double) -> Double {
        let fit = polynomialFit(flight.points.map(\.time), flight.points.map(\.x), degree: 1)
        return { fit.coefficients[0] + fit.coefficients[1] * ($0 - fit.center) }
    }

    private func fitParabola(_ flight: GroundTruth.Flight) -> Parabola {
        let fit = polynomialFit(flight.points.map(\.time), flight.points.map(\.y), degree: 2)
        return Parabola(c0: fit.coefficients[0], c1: fit.coefficients[1], c2: fit.coefficients[2], center: fit.center)
    }
}

/// y = c0 + c1·(t − center) + c2·(t − center)², y down the frame.
private struct Parabola {
    let c0, c1, c2, center: Double

    /// When y reaches `height` while falling (y growing) or rising.
    func time(atHeight height: Double, descending: Bool) -> Double? {
        let discriminant = c1 * c1 - 4 * c2 * (c0 - height)
        guard discriminant >= 0, c2 != 0 else { return nil }
        let root = discriminant.squareRoot()
        // With c2 > 0 (gravity down the frame) the later root is where y grows through height.
        let later = (-c1 + root) / (2 * c2)
        let earlier = (-c1 - root) / (2 * c2)
        return center + (descending ? later : earlier)
    }
}
