import Foundation
import Testing
import TrajectoryKit

/// A flight confirmed by a track that started part-way still reports the ball from its first
/// detection: the tracker looks back through the frames it keeps for the ball's earlier blobs.
///
/// The scenes make a track start late the way real clutter does: in a busy frame faint blobs
/// start no track (`TrackingQuietFrameTests`), so a ball that shows faintly for its first
/// frames and clearly after is followed only from its first clear blob.
@Suite struct TrackingBackfillTests {
    static let clearFrom = 6
    static let frameRate = 30.0

    /// Where the ball is at `time`: thrown from (150, 550) at (700, −800) px/s.
    static func flight(_ time: Double) -> PixelPoint {
        PixelPoint(x: 150 + 700 * time, y: 550 - 800 * time + 0.5 * 1500 * time * time)
    }

    /// The ball: faint (change 7, below the 10 a blob needs to start a track in a busy frame)
    /// before frame `clearFrom`, clear from then on; `earlyOffset` moves its faint blobs.
    static func ball(earlyOffset: PixelVector = PixelVector(x: 0, y: 0)) -> [MovingBlob] {
        let switchTime = Double(clearFrom) / frameRate
        var faint = MovingBlob(path: { time in
            guard time < switchTime - 1e-9 else { return nil }
            let point = flight(time)
            return PixelPoint(x: point.x + earlyOffset.x, y: point.y + earlyOffset.y)
        }, radius: 8)
        faint.contrast = 7
        let clear = MovingBlob(path: { time in time >= switchTime - 1e-9 ? flight(time) : nil }, radius: 8)
        return [faint, clear]
    }

    static func run(_ sources: [MovingBlob]) throws -> [TrajectoryObservation] {
        let scene = BlobScene(frameCount: 36, sources: sources + TrackingQuietFrameTests.standingBlobs(4))
        return scene.run(try TrajectoryTracker()).finalObservations
    }

    @Test("a flight whose first blobs could not start a track is reported from its first frame")
    func reportsTheStart() throws {
        let trajectories = try Self.run(Self.ball())
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
        #expect(trajectories[0].timeRange.start == 0)
        for point in trajectories[0].points {
            let pixel = point.location.pixels(width: BlobScene.width, height: BlobScene.height)
            let truth = Self.flight(point.time)
            #expect(PixelVector(x: pixel.x - truth.x, y: pixel.y - truth.y).length < 1.5, "frame \(point.frame)")
        }
    }

    @Test("blobs off the flight's path before its track began are not taken")
    func leavesBlobsOffThePath() throws {
        // 12 px off: well outside the noise of ten clear points extrapolated back a few frames.
        let trajectories = try Self.run(Self.ball(earlyOffset: PixelVector(x: 0, y: 12)))
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.first?.frame == Self.clearFrom)
    }

    @Test("every observation's points stay in frame order")
    func pointsInOrder() throws {
        let scene = BlobScene(frameCount: 36, sources: Self.ball() + TrackingQuietFrameTests.standingBlobs(4))
        let observations = scene.run(try TrajectoryTracker()).joined()
        try #require(!observations.isEmpty)
        for observation in observations {
            let frames = observation.points.map(\.frame)
            #expect(frames == frames.sorted() && Set(frames).count == frames.count)
        }
    }
}
