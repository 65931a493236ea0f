import Foundation
import Testing
import TrajectoryKit

/// A ball tossed steeply and filmed at a high frame rate moves less than a pixel a frame for
/// several frames around its apex, and frame differencing does not see it there: the tracker
/// must carry the flight across that gap rather than end it and start a second trajectory.
@Suite struct TrackingApexTests {
    /// Tossed nearly straight up at 60 fps: 600 px/s up, 30 px/s across, 1000 px/s² of gravity,
    /// so its apex is 180 px up at 0.6 s (frame 36) and it lands back at frame 72.
    static let toss = MovingBlob.ball(
        origin: PixelPoint(x: 600, y: 650), velocity: PixelVector(x: 30, y: -600), gravity: 1000, radius: 8)
    static let frameRate = 60.0

    /// Frames in a row a track may miss at 60 frames a second: twice what it may at 30, the
    /// same time (`FramePace`).
    static func missedFrameLimit() throws -> Int { 2 * (try TrajectoryTracker.Configuration().maximumMissedFrames) }

    /// The toss at 60 fps without the blobs of the frames where the ball moved less than a
    /// pixel and a half since the frame before, as a frame-differencing detector misses them
    /// (the frames it compares show little of a ball that moved less than a fifth of its
    /// radius): ten frames, more than a track may miss.
    static func scene(seed: UInt64) -> (scene: BlobScene, unseen: [Int]) {
        var scene = BlobScene(frameCount: 72, frameRate: frameRate, sources: [toss], seed: seed)
        var unseen: [Int] = []
        for frame in 1..<scene.stamps.count {
            let now = toss.path(scene.stamps[frame].time)!, before = toss.path(scene.stamps[frame - 1].time)!
            if PixelVector(x: now.x - before.x, y: now.y - before.y).length < 1.5 {
                scene.blobs[frame].removeAll()
                unseen.append(frame)
            }
        }
        return (scene, unseen)
    }

    @Test("a steep flight at 60 fps keeps one uuid across the frames around its apex where the ball is not seen",
          arguments: [1, 2, 3] as [UInt64])
    func oneTrajectoryAcrossTheApex(seed: UInt64) throws {
        let (scene, unseen) = Self.scene(seed: seed)
        // More frames than a track may miss: without the apex's allowance the flight is cut.
        let limit = try Self.missedFrameLimit()
        try #require(unseen.count > limit)
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        let frames = trajectories[0].points.map(\.frame)
        #expect(frames.contains(unseen.first! - 1) && frames.contains(unseen.last! + 1))
        #expect(frames.last == 71)
    }

    @Test("without the allowance for a still ball the same flight is cut in two at its apex")
    func cutWithoutTheAllowance() throws {
        let (scene, _) = Self.scene(seed: 1)
        var flight = TrajectoryTracker.FlightCriteria()
        flight.stillBallTravelInRadii = 0
        let tracker = TrajectoryTracker(configuration: try TrajectoryTracker.Configuration(flight: flight))
        let observations = scene.run(tracker)
        #expect(observations.uuids.count == 2)
    }

    /// The toss unseen for `gap` frames from frame 20, well before its apex, with every
    /// prediction of a confirmed flight taken as nearly still: so every miss in the gap is one
    /// the allowance may excuse, and only its cap limits them.
    static func runWithGap(_ gap: Int) throws -> [[TrajectoryObservation]] {
        var scene = BlobScene(frameCount: 72, frameRate: frameRate, sources: [toss], seed: 7)
        for frame in 20..<(20 + gap) { scene.blobs[frame].removeAll() }
        var flight = TrajectoryTracker.FlightCriteria()
        flight.stillBallTravelInRadii = 10
        return scene.run(TrajectoryTracker(configuration: try TrajectoryTracker.Configuration(flight: flight)))
    }

    @Test("the allowance for a still ball excuses as many misses as a track may have, and no more")
    func allowanceIsCapped() throws {
        let limit = try Self.missedFrameLimit()
        // `limit` excused misses and `limit` counted ones: the flight is carried across.
        let bridged = try Self.runWithGap(2 * limit)
        #expect(bridged.uuids.count == 1)
        #expect(bridged.finalObservations.first?.points.map(\.frame).contains(20 + 2 * limit) == true)
        // One more: the track is let go, and the ball's return starts a second trajectory.
        let cut = try Self.runWithGap(2 * limit + 1)
        #expect(cut.uuids.count == 2)
        #expect(cut.finalObservations.first.map { $0.points.last!.frame < 20 } == true)
    }

    @Test("a ball that vanishes at its apex is let go after the allowance, not followed on")
    func vanishingAtTheApex() throws {
        var (scene, unseen) = Self.scene(seed: 1)
        // It comes back only after twice the misses a track may have, plus the apex's share.
        let limit = try Self.missedFrameLimit()
        let returns = unseen.last! + 2 * limit + 1
        for frame in unseen.last!..<returns { scene.blobs[frame].removeAll() }
        let observations = scene.run(try TrajectoryTracker())
        let trajectories = observations.finalObservations
        try #require(trajectories.count == 2)
        #expect(trajectories[0].points.last!.frame < unseen.first!)
        #expect(trajectories[1].points.first!.frame >= returns)
    }
}
