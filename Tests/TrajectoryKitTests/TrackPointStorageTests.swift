import Testing

@testable import TrajectoryKit

/// A spare track is reused for whatever starts next. Once a stream has shown its longest
/// trajectory, no track may need to grow its points for one as long again: the whole request
/// allocates nothing per frame in steady state (the `Request` benchmark, looped clips).
@Suite struct TrackPointStorageTests {
    /// A ball rolling across the bottom of the frame for `frames` frames at 30 a second, among
    /// clutter that starts and drops tentative tracks every frame.
    static func rollingBallAmongClutter(frames: Int) -> BlobScene {
        let speed = 1000 / (Double(frames) / 30)
        let ball = MovingBlob(path: { t in PixelPoint(x: 100 + speed * t, y: 650) }, radius: 10)
        return BlobScene(frameCount: frames, sources: [ball], clutterPerFrame: 6, seed: 7)
    }

    @Test("after a long trajectory, every track, alive or spare, has room for as many points")
    func spareTracksGrowWithTheLongestTrajectory() throws {
        let scene = Self.rollingBallAmongClutter(frames: 90)
        let tracker = try TrajectoryTracker()
        let longest = try #require(scene.run(tracker).finalObservations.map(\.points.count).max())
        // Longer than a tentative track's storage, or there would be nothing to grow.
        #expect(longest > 2 * tracker.configuration.trajectoryLength + 1)
        let capacities = tracker.pointCapacities
        #expect(capacities.count > 1, "the clutter should have left spare tracks")
        #expect(capacities.allSatisfy { $0 >= longest }, "capacities \(capacities), longest trajectory \(longest)")
    }

    @Test("a trajectory longer than 256 points does not swell every other track's storage")
    func sharedGrowthStopsAt256Points() throws {
        let scene = Self.rollingBallAmongClutter(frames: 330)
        let tracker = try TrajectoryTracker()
        let longest = try #require(scene.run(tracker).finalObservations.map(\.points.count).max())
        #expect(longest > 300)
        let capacities = tracker.pointCapacities.sorted()
        #expect(capacities.count > 1)
        // The long trajectory's own track holds all its points; the others stop at the limit.
        #expect(capacities.last! >= longest)
        #expect(capacities.dropLast().allSatisfy { $0 >= TrajectoryTracker.pointStorageSharedUpTo && $0 < longest },
                "capacities \(capacities)")
    }
}
