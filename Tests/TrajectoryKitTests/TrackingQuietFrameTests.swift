import Foundation
import Testing
import TrajectoryKit

/// A ball seen only faintly (mean change 7, below the 10 a strong blob needs) throughout its
/// flight: where nothing else moves it is found; where the frame is busy its faint blobs do not
/// start tracks.
@Suite struct TrackingQuietFrameTests {
    static var faintBall: MovingBlob {
        var ball = MovingBlob.ball(origin: PixelPoint(x: 150, y: 550), velocity: PixelVector(x: 700, y: -800))
        ball.contrast = 7
        return ball
    }

    /// Clear blobs standing still, as many as `count`: they keep the frame busy, and being still
    /// they are never a flight.
    static func standingBlobs(_ count: Int) -> [MovingBlob] {
        (0..<count).map { index in
            MovingBlob(path: { _ in PixelPoint(x: 900 + 60 * Double(index), y: 150) }, radius: 6)
        }
    }

    @Test("a faint ball alone in the frame is found from its first points, every point on it")
    func faintBallAlone() throws {
        let scene = BlobScene(frameCount: 36, sources: [Self.faintBall])
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
        for point in trajectories[0].points {
            let pixel = point.location.pixels(width: BlobScene.width, height: BlobScene.height)
            let truth = Self.faintBall.path(point.time)!
            #expect(PixelVector(x: pixel.x - truth.x, y: pixel.y - truth.y).length < 1.5)
        }
    }

    @Test("beside a few other movers the frame is still quiet enough", arguments: [1, 3])
    func fewOthers(count: Int) throws {
        let scene = BlobScene(frameCount: 36, sources: [Self.faintBall] + Self.standingBlobs(count))
        #expect(scene.run(try TrajectoryTracker()).uuids.count == 1)
    }

    @Test("in a busy frame faint blobs start no track", arguments: [4, 8])
    func busyFrame(count: Int) throws {
        let scene = BlobScene(frameCount: 36, sources: [Self.faintBall] + Self.standingBlobs(count))
        #expect(scene.run(try TrajectoryTracker()).uuids.isEmpty)
    }

    @Test("the quiet frame's limits are settings, checked like the others")
    func settings() throws {
        var blobs = TrajectoryTracker.BlobCriteria()
        blobs.minimumQuietStartContrast = 12
        #expect(throws: ConfigurationError.self) { try TrajectoryTracker.Configuration(blobs: blobs) }

        // Raising the quiet start's contrast to the strong blob's turns it off.
        blobs.minimumQuietStartContrast = blobs.minimumContrast
        let tracker = TrajectoryTracker(configuration: try .init(blobs: blobs))
        #expect(BlobScene(frameCount: 36, sources: [Self.faintBall]).run(tracker).uuids.isEmpty)
    }
}
