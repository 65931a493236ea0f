import Foundation
import Testing
import TrajectoryKit

/// A slow ball is sometimes found as two blobs, one over each side of it, each centred several
/// pixels off the ball: a confirmed flight takes the two together, centred near the ball.
@Suite struct TrackingSplitBallTests {
    static let ball = TrackingPartialDetectionTests.ball
    static let splitFrames = 14...22

    /// The ball's blob in `splitFrames` replaced by its upper and lower parts, `offset` pixels
    /// above and below its centre, plus `extra` blobs from `extraBlob(truth, random)`.
    static func scene(seed: UInt64, offset: Double = 4.5, extraBlob: ((PixelPoint, inout SeededGenerator) -> Blob)? = nil)
        -> BlobScene
    {
        var scene = BlobScene(frameCount: 36, sources: [ball], seed: seed)
        var random = SeededGenerator(seed: seed &+ 200)
        for frame in splitFrames {
            let truth = ball.path(scene.stamps[frame].time)!
            func part(_ dy: Double, area: Int) -> Blob {
                Blob(
                    center: PixelPoint(
                        x: truth.x + random.gaussian(standardDeviation: 0.3), y: truth.y + dy + random.gaussian(standardDeviation: 0.3)),
                    radius: 7, area: area, contrast: 20, elongation: 1.5, solidity: 0.6)
            }
            scene.blobs[frame] = [part(-offset, area: 100), part(offset, area: 100)]
            if let extraBlob { scene.blobs[frame].append(extraBlob(truth, &random)) }
        }
        return scene
    }

    @Test("a ball found as two parts keeps one trajectory whose points lie between them, on the ball",
          arguments: [1, 2, 3] as [UInt64])
    func twoPartsJoined(seed: UInt64) throws {
        let trajectories = Self.scene(seed: seed).run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        let points = trajectories[0].points
        #expect(points.map(\.frame) == Array(0..<36))
        // Either part alone is 4.5 px off; the two joined within the parts' own noise.
        for point in points where Self.splitFrames.contains(point.frame) {
            #expect(TrackingPartialDetectionTests.pixelError(point) < 1.5, "frame \(point.frame)")
        }
    }

    @Test("a whole ball is not joined to a blob beside it", arguments: [4, 5, 6] as [UInt64])
    func wholeBallNotJoined(seed: UInt64) throws {
        var scene = BlobScene(frameCount: 36, sources: [Self.ball], seed: seed)
        var random = SeededGenerator(seed: seed &+ 300)
        // A ragged blob of the ball's size 10 px from it, in every frame of the middle stretch.
        for frame in Self.splitFrames {
            let truth = Self.ball.path(scene.stamps[frame].time)!
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            scene.blobs[frame].append(Blob(
                center: PixelPoint(x: truth.x + 10 * cos(angle), y: truth.y + 10 * sin(angle)),
                radius: 8, area: 200, contrast: 20, elongation: 1.5, solidity: 0.6))
        }
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        for point in trajectories[0].points where Self.splitFrames.contains(point.frame) {
            #expect(TrackingPartialDetectionTests.pixelError(point) < 1.5, "frame \(point.frame)")
        }
    }
}
