import Foundation
import Testing
import TrajectoryKit

/// A ball whose first clear blobs are taken by a tentative track that was following something
/// faint. That track's earlier points are not the ball's, and must not keep the ball's flight
/// from being confirmed while it lasts.
@Suite struct TrackingNewObjectTests {
    /// Something faint (mean change 7, below the 10 a strong blob needs) wobbling on the spot
    /// until frame 14 (a hand before it throws, say): flicker a tentative track follows, never
    /// a flight. Alone in the frame it is quiet enough for its faint blobs to start a track.
    static let flicker = MovingBlob(
        path: { time in time < 14.0 / 30 - 1e-9 ? PixelPoint(x: 600 + 3 * sin(7 * time), y: 400 + 3 * cos(5 * time)) : nil },
        radius: 8, contrast: 7, solidity: 0.9)

    /// A clear ball thrown from the flicker's place at frame `start`, seen for `frames` frames:
    /// where the flicker's track expects its next point, so that track takes the ball's blobs.
    static func ball(start: Int, frames: Int) -> MovingBlob {
        .ball(
            origin: PixelPoint(x: 600, y: 400), velocity: PixelVector(x: 600, y: -450),
            start: Double(start) / 30, end: Double(start + frames - 1) / 30)
    }

    /// The frames of the one trajectory `tracker` reports for `scene`, or nil when it reports
    /// none or several.
    static func trajectoryFrames(_ scene: BlobScene, _ tracker: TrajectoryTracker) -> [Int]? {
        let trajectories = scene.run(tracker).finalObservations
        guard trajectories.count == 1 else { return nil }
        return trajectories[0].points.map(\.frame)
    }

    @Test("a ball thrown past flicker a track has followed for a while gets a trajectory of its own, every point on it")
    func ballPastFlicker() throws {
        // The flicker's track holds 14 points when the ball appears, and a tentative track
        // keeps 20: the ball, seen for 14 frames, is gone before the flicker's points have left
        // the track (all but the last 5, a weak start short enough to be set aside).
        let scene = BlobScene(frameCount: 40, sources: [Self.flicker, Self.ball(start: 14, frames: 14)])
        #expect(Self.trajectoryFrames(scene, try TrajectoryTracker()) == Array(14..<28))
    }

    @Test("without the new-object ratio the flicker's track takes the ball and the flight is not reported")
    func ruleOff() throws {
        var blobs = TrajectoryTracker.BlobCriteria()
        blobs.newObjectContrastRatio = .infinity
        let tracker = TrajectoryTracker(configuration: try .init(blobs: blobs))
        let scene = BlobScene(frameCount: 40, sources: [Self.flicker, Self.ball(start: 14, frames: 14)])
        #expect(scene.run(tracker).uuids.isEmpty)
    }

    @Test("a weak start is set aside only at a track's real start, not once its history has been cut")
    func weakStartOnlyAtRealStart() throws {
        // Flicker at mean change 6, once 9.9, then a ball at 15: under 1.8 times the clearest
        // flicker point, so the flicker's track takes the ball rather than restarting. Seen for
        // 16 frames, the ball leaves 5 or 4 flicker points at the front of the track's 20 for its
        // last frames: a weak start by length and by contrast, but the track's older points were
        // dropped, so they are what is left of its clutter and still count.
        var flicker = Self.flicker
        flicker.contrast = 6
        var ball = Self.ball(start: 14, frames: 16)
        ball.contrast = 15
        var scene = BlobScene(frameCount: 40, sources: [flicker, ball])
        scene.blobs[6][0].contrast = 9.9
        #expect(scene.run(try TrajectoryTracker()).uuids.isEmpty)
    }

    @Test("the new-object ratio is a setting, checked like the others")
    func setting() throws {
        var blobs = TrajectoryTracker.BlobCriteria()
        blobs.newObjectContrastRatio = 0.9
        #expect(throws: ConfigurationError.self) { try TrajectoryTracker.Configuration(blobs: blobs) }
    }

    /// A faint blob (mean change 7) standing beside where the ball is thrown from, seen for
    /// `frames` frames before the ball appears: fragments of the thrower's hand, say.
    static func faintStart(frames: Int) -> MovingBlob {
        MovingBlob(path: { time in time < Double(frames) / 30 - 1e-9 ? PixelPoint(x: 596, y: 404) : nil },
                   radius: 5, contrast: 7, solidity: 0.9)
    }

    @Test("a track that began on a few faint blobs before the ball is confirmed without them", arguments: [1, 2, 3, 4, 5])
    func shortWeakStart(weakFrames: Int) throws {
        // 12 frames of flight: without setting the faint start aside, its points would stay in
        // the track's history (up to 20) for longer than the flight lasts.
        let scene = BlobScene(
            frameCount: 30, sources: [Self.faintStart(frames: weakFrames), Self.ball(start: weakFrames, frames: 12)])
        #expect(Self.trajectoryFrames(scene, try TrajectoryTracker()) == Array(weakFrames..<(weakFrames + 12)))
    }

    @Test("a faint start like what follows it is not set aside: a faint thing growing clearer", arguments: [4, 5])
    func weakStartLikeBall(weakFrames: Int) throws {
        // The ball's mean change is 12, under 1.8 times the start's 7: the start may be the same
        // faint thing, so it counts, and the 12 points after it are too few to outlast it.
        var ball = Self.ball(start: weakFrames, frames: 12)
        ball.contrast = 12
        let scene = BlobScene(frameCount: 30, sources: [Self.faintStart(frames: weakFrames), ball])
        #expect(scene.run(try TrajectoryTracker()).uuids.isEmpty)
    }

    @Test("a faint start longer than half a window is the track's own history and still counts")
    func longWeakStart() throws {
        let scene = BlobScene(frameCount: 30, sources: [Self.faintStart(frames: 6), Self.ball(start: 6, frames: 12)])
        #expect(scene.run(try TrajectoryTracker()).uuids.isEmpty)
    }
}
