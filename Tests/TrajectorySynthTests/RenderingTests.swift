import TrajectoryEvaluation
import Testing
import TrajectorySynth

@Suite struct RenderingTests {
    struct Motion: Sendable, CustomTestStringConvertible {
        var velocity: SIMD2<Double>
        var shutter: Double
        var testDescription: String { "v = \(velocity) px/s, shutter \(shutter)" }
    }

    static let motions = [
        Motion(velocity: SIMD2(40, -30), shutter: 0.5),
        Motion(velocity: SIMD2(350, -250), shutter: 0.5),
        Motion(velocity: SIMD2(-900, -100), shutter: 0.5),
        Motion(velocity: SIMD2(1400, -300), shutter: 1),
    ]

    @Test("without noise, the ball's intensity centroid is within 0.2 px of the truth, blurred or not", arguments: motions)
    func centroidMatchesTruth(motion: Motion) throws {
        // Start so that the ball passes (320, 90) at frame 6, in front of the plain wall.
        let time6 = 6.0 / 30
        let centre = SIMD2(320.0, 90)
        let start = centre - motion.velocity * time6 - SIMD2(0, 0.5 * 700 * time6 * time6)
        let ball = flyingBall(start: start, velocity: motion.velocity, frame: SIMD2(640, 360))
        let script = quietScene(balls: [ball], width: 640, height: 360, frameCount: 12, shutterFraction: motion.shutter)
        let truth = script.groundTruth()
        let frames = [4, 6, 8]
        for (frame, centroid) in zip(frames, ballCentroids(in: script, frames: frames)) {
            let point = try #require(truth.flights.flatMap(\.points).first { $0.frame == frame })
            let centroid = try #require(centroid)
            #expect(abs(centroid.x - point.x) < 0.2 && abs(centroid.y - point.y) < 0.2, "frame \(frame): \(centroid) vs (\(point.x), \(point.y))")
        }
    }

    @Test("a ball lit from the upper left is brighter there: its centroid moves towards the light, by less than a third of its radius")
    func tiltedLightShiftsCentroid() throws {
        let ball = flyingBall(start: SIMD2(100, 60), velocity: SIMD2(60, 0), radius: 9, light: SIMD3(-1, -1, 1))
        let script = quietScene(balls: [ball])
        let point = try #require(script.groundTruth().flights.first?.points[5])
        let centroid = try #require(ballCentroids(in: script, frames: [5])[0])
        #expect(centroid.x < point.x - 0.1 && centroid.y < point.y - 0.1)
        #expect(abs(centroid.x - point.x) < 3 && abs(centroid.y - point.y) < 3)
    }

    @Test("a ball behind a pole is marked invisible and does not show; away from it, it is visible")
    func occludedBallIsInvisible() throws {
        let pole = Pole(centerX: 160, halfWidth: 12, top: 20, bottom: 230, level: 200)
        let ball = flyingBall(start: SIMD2(40, 110), velocity: SIMD2(240, 0), radius: 5, gravity: 0)
        let script = quietScene(balls: [ball], actors: [pole])
        let points = try #require(script.groundTruth().flights.first?.points)
        let hidden = points.filter { abs($0.x - 160) + 5 < 12 }
        #expect(!hidden.isEmpty)
        // Hidden entirely: those frames are the same as without the ball.
        #expect(ballCentroids(in: script, frames: hidden.map(\.frame)).allSatisfy { $0 == nil })
        for point in points {
            if abs(point.x - 160) + 5 < 12 {
                #expect(!point.visible)
            } else if abs(point.x - 160) > 12 + 5 {
                #expect(point.visible)
            }
        }
        #expect(points.contains { !$0.visible })
    }

    @Test("a ball entering from the side is invisible while mostly outside, and its flight starts when it first overlaps the frame")
    func enteringBall() throws {
        let ball = flyingBall(start: SIMD2(-40, 120), velocity: SIMD2(300, -100))
        let flight = try #require(quietScene(balls: [ball]).groundTruth().flights.first)
        let first = try #require(flight.points.first)
        #expect(first.x + 6 > 0 && first.x - 6 - 10 < 0)
        for point in flight.points {
            #expect(point.visible == (point.x >= 0))
        }
    }
}
