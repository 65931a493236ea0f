import Foundation
import Testing
import TrajectoryKit

/// A confirmed ball seen only in part (its other part no different from what is behind it) or
/// merged with something beside it: the blob's centre lies anywhere on the ball for many
/// frames in a row, far beyond the ordinary centroid noise (0.5 px).
@Suite struct TrackingPartialDetectionTests {
    /// A ball of radius 8 thrown across the frame, 36 frames.
    static let ball = MovingBlob.ball(
        origin: PixelPoint(x: 100, y: 500), velocity: PixelVector(x: 900, y: -700), gravity: 900, radius: 8)

    /// The scene with the ball's blobs in `frames` replaced by `blob(truth, random)`.
    static func scene(altering frames: ClosedRange<Int>, seed: UInt64, blob: (PixelPoint, inout SeededGenerator) -> Blob)
        -> BlobScene
    {
        var scene = BlobScene(frameCount: 36, sources: [ball], seed: seed)
        var random = SeededGenerator(seed: seed &+ 100)
        for frame in frames {
            scene.blobs[frame][0] = blob(ball.path(scene.stamps[frame].time)!, &random)
        }
        return scene
    }

    /// A point `distance` pixels from `center` in a random direction.
    static func point(_ center: PixelPoint, at distance: Double, _ random: inout SeededGenerator) -> PixelPoint {
        let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
        return PixelPoint(x: center.x + distance * cos(angle), y: center.y + distance * sin(angle))
    }

    static func pixelError(_ point: TrajectoryPoint) -> Double {
        let pixel = point.location.pixels(width: BlobScene.width, height: BlobScene.height)
        let truth = ball.path(point.time)!
        return PixelVector(x: pixel.x - truth.x, y: pixel.y - truth.y).length
    }

    @Test("a flight keeps one uuid and every point through twelve frames of the ball seen in part", arguments: [1, 2, 3] as [UInt64])
    func partOfTheBall(seed: UInt64) throws {
        // A blob of radius 4.5 inside the ball: its centre is up to 3.5 px off the ball's.
        let scene = Self.scene(altering: 12...23, seed: seed) { truth, random in
            Blob(center: Self.point(truth, at: Double.random(in: 2...3.5, using: &random), &random),
                 radius: 4.5, area: 64, contrast: 30, elongation: 1.3, solidity: 0.95)
        }
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
        // The part-ball points barely sway the fit: once whole again the ball is followed closely.
        for point in trajectories[0].points where point.frame >= 24 {
            #expect(Self.pixelError(point) < 1.5)
        }
    }

    @Test("a flight keeps one uuid through ten frames of the ball merged with ragged clutter", arguments: [4, 5, 6] as [UInt64])
    func mergedWithClutter(seed: UInt64) throws {
        // Larger, ragged blobs whose centre is pulled up to 6 px (three quarters of the radius).
        let scene = Self.scene(altering: 14...23, seed: seed) { truth, random in
            Blob(center: Self.point(truth, at: Double.random(in: 2...6, using: &random), &random),
                 radius: 11, area: 300, contrast: 25, elongation: 1.5, solidity: 0.7)
        }
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.count >= 34)
        #expect(trajectories[0].points.last?.frame == 35)
    }

    @Test("a flight reports no point where the ball merges with something far larger", arguments: [7, 8, 9] as [UInt64])
    func mergedWithSomethingLarger(seed: UInt64) throws {
        // Four frames of the ball in front of a walker: one blob of radius 30 whose centre is
        // 6 px from the ball's, within the flight's gate and displacement allowance.
        let scene = Self.scene(altering: 14...17, seed: seed) { truth, random in
            Blob(center: Self.point(truth, at: 6, &random), radius: 30, area: 2800, contrast: 30, elongation: 1.4,
                 solidity: 0.9)
        }
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        // The walker's centre says nothing of where the ball is: those frames are misses, and
        // the flight goes on once the ball is seen alone again.
        #expect(trajectories[0].points.map(\.frame) == Array(0..<14) + Array(18..<36))
        for point in trajectories[0].points { #expect(Self.pixelError(point) < 1.5) }
    }

    @Test("a bounce still ends the trajectory when the ball is seen in part around it")
    func bounceAmongPartialDetections() throws {
        let (ball, fallTime) = MovingBlob.bouncingBall()
        var scene = BlobScene(frameCount: 54, sources: [ball], seed: 7)
        var random = SeededGenerator(seed: 8)
        let bounceFrame = Int(fallTime * 30)
        for frame in (bounceFrame - 4)...(bounceFrame + 4) {
            let truth = ball.path(scene.stamps[frame].time)!
            scene.blobs[frame][0] = Blob(
                center: Self.point(truth, at: 3, &random), radius: 4.5, area: 64, contrast: 30, elongation: 1.3,
                solidity: 0.95)
        }
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 2)
        #expect(trajectories[0].points.allSatisfy { $0.time <= fallTime })
        #expect(trajectories[1].points.allSatisfy { $0.time > fallTime })
    }
}
