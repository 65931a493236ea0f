import Foundation
import Testing
import TrajectoryKit

/// The cues that tell a ball from other steady motion, each shown by a scene it decides: what
/// the cue rejects, and the nearest case it must still accept.
@Suite struct TrackingIndependentMotionTests {
    static let frameCount = 60

    static func trajectories(_ sources: [MovingBlob], seed: UInt64 = 1) throws -> [TrajectoryObservation] {
        let scene = BlobScene(frameCount: frameCount, sources: sources, seed: seed)
        return scene.run(try TrajectoryTracker()).finalObservations
    }

    /// A blob moving at constant velocity, `offset` from where the leader of its group is.
    static func steady(
        from origin: PixelPoint, velocity: PixelVector, offset: PixelVector = PixelVector(x: 0, y: 0),
        radius: Double = 4
    ) -> MovingBlob {
        MovingBlob(path: { t in
            PixelPoint(x: origin.x + offset.x + velocity.x * t, y: origin.y + offset.y + velocity.y * t)
        }, radius: radius)
    }

    /// `count` letters 25 px apart in a row starting at `start`, scrolling to the right.
    static func board(from start: PixelPoint, count: Int) -> [MovingBlob] {
        (0..<count).map { index in
            steady(from: start, velocity: PixelVector(x: 220, y: 0), offset: PixelVector(x: 25 * Double(index), y: 0))
        }
    }

    @Test("a letter-sized blob moving steadily on its own is a rolling ball")
    func loneLetterRolls() throws {
        let letter = Self.board(from: PixelPoint(x: 100, y: 300), count: 1)
        #expect(try Self.trajectories(letter).count == 1)
    }

    @Test("letters scrolling together on a board make no trajectory", arguments: [11, 12, 13] as [UInt64])
    func scrollingLetters(seed: UInt64) throws {
        // Each letter alone would be a rolling ball.
        let letters = Self.board(from: PixelPoint(x: 100, y: 300), count: 6)
        #expect(try Self.trajectories(letters, seed: seed).isEmpty)
    }

    @Test("a head walking with its torso makes no trajectory", arguments: [21, 22, 23] as [UInt64])
    func headAndTorso(seed: UInt64) throws {
        let velocity = PixelVector(x: 110, y: 0)
        let head = Self.steady(from: PixelPoint(x: 200, y: 400), velocity: velocity, radius: 8)
        let torso = Self.steady(
            from: PixelPoint(x: 200, y: 400), velocity: velocity, offset: PixelVector(x: 0, y: 40), radius: 18)
        #expect(try Self.trajectories([head, torso], seed: seed).isEmpty)
    }

    @Test("a head whose torso moves with it at only a fifth of its points makes no trajectory", arguments: [24, 25, 26] as [UInt64])
    func headWithIntermittentTorso(seed: UInt64) throws {
        // The torso's blob comes and goes as its shape changes (three frames in five), so it is
        // seen moving with the head, two frames back, at only a fifth of the head's points:
        // too few to count against a flight, enough against a steady blob.
        let velocity = PixelVector(x: 110, y: 0)
        let head = Self.steady(from: PixelPoint(x: 200, y: 400), velocity: velocity, radius: 6)
        let body = Self.steady(from: PixelPoint(x: 200, y: 400), velocity: velocity, offset: PixelVector(x: 0, y: 40), radius: 18)
        let torso = MovingBlob(path: { t in Int((t * 30).rounded()) % 5 < 3 ? body.path(t) : nil }, radius: 18)
        #expect(try Self.trajectories([head, torso], seed: seed).isEmpty)

        var lenient = TrajectoryTracker.IndependenceCriteria()
        lenient.rollingMaximumSharedFraction = lenient.maximumSharedFraction
        let scene = BlobScene(frameCount: Self.frameCount, sources: [head, torso], seed: seed)
        let tracker = TrajectoryTracker(configuration: try .init(independence: lenient))
        #expect(scene.run(tracker).finalObservations.count == 1)
    }

    @Test("a ball carried in a hand along a falling arc makes no trajectory")
    func carriedAlongAnArc() throws {
        // The hand's motion happens to be a parabola: only the hand beside the ball gives it away.
        let arc = MovingBlob.ball(origin: PixelPoint(x: 300, y: 500), velocity: PixelVector(x: 250, y: -700))
        let hand = MovingBlob(path: { t in
            arc.path(t).map { PixelPoint(x: $0.x + 16, y: $0.y + 14) }
        }, radius: 10)
        #expect(try Self.trajectories([arc, hand]).isEmpty)
        #expect(try Self.trajectories([arc]).count == 1)
    }

    @Test("a ball thrown past a scrolling board is still found", arguments: [31, 32, 33] as [UInt64])
    func throwPastBoard(seed: UInt64) throws {
        let letters = Self.board(from: PixelPoint(x: 40, y: 300), count: 12)
        // Rises through the board's row and falls back through it.
        let ball = MovingBlob.ball(origin: PixelPoint(x: 200, y: 500), velocity: PixelVector(x: 300, y: -900))
        let found = try Self.trajectories(letters + [ball], seed: seed)
        try #require(found.count == 1)
        #expect(found[0].points.count >= 30)
    }

    @Test("the trail a detector leaves where a rolling ball was does not count as a companion")
    func ghostTrail() throws {
        // A faint blob where the ball was two frames before, as frame differencing can leave:
        // at a constant velocity it keeps its place behind the ball like a companion would.
        let ball = MovingBlob(path: { t in PixelPoint(x: 100 + 400 * t, y: 650) }, radius: 10)
        var ghost = MovingBlob(path: { t in t >= 2.0 / 30 ? ball.path(t - 2.0 / 30) : nil }, radius: 4)
        ghost.contrast = 5
        let found = try Self.trajectories([ball, ghost])
        try #require(found.count == 1)
        #expect(found[0].points.count == Self.frameCount)
    }
}

@Suite struct TrackingDetectionEvidenceTests {
    static func trajectories(_ sources: [MovingBlob], frameCount: Int = 60, seed: UInt64 = 1) throws -> [TrajectoryObservation] {
        BlobScene(frameCount: frameCount, sources: sources, seed: seed).run(try TrajectoryTracker()).finalObservations
    }

    static func rolling(solidity: Double = 0.95, elongation: Double = 1.1) -> MovingBlob {
        var blob = MovingBlob(path: { t in PixelPoint(x: 100 + 400 * t, y: 650) }, radius: 10)
        blob.solidity = solidity
        blob.elongation = elongation
        return blob
    }

    @Test("a steady blob is a rolling ball only when its blobs look like a ball", arguments: [
        (0.95, 1.1, true),   // a solid disc: a ball
        (0.7, 1.1, false),   // ragged (a head with its hair and neck, a hand)
        (0.95, 3.5, false),  // longer than its blur explains (a word of a banner, an arm)
    ])
    func rollingNeedsBallLikeBlobs(solidity: Double, elongation: Double, isBall: Bool) throws {
        let found = try Self.trajectories([Self.rolling(solidity: solidity, elongation: elongation)])
        #expect(found.count == (isBall ? 1 : 0))
    }

    @Test("a dot moving steadily inside a wider blob (a scrolling word) is no rolling ball", arguments: [1, 2, 3] as [UInt64])
    func dotInsideWord(seed: UInt64) throws {
        // A round, solid dot just below the middle of a long word that scrolls with it: the
        // word's blob touches the dot, so it is no neighbour for the independent-motion cue.
        let velocity = PixelVector(x: 220, y: 0)
        let dot = TrackingIndependentMotionTests.steady(from: PixelPoint(x: 100, y: 300), velocity: velocity, radius: 2.5)
        var word = TrackingIndependentMotionTests.steady(
            from: PixelPoint(x: 100, y: 300), velocity: velocity, offset: PixelVector(x: 6, y: -8), radius: 12)
        word.elongation = 10
        #expect(try Self.trajectories([dot, word], seed: seed).isEmpty)

        // Only the blobs' look tells: without asking a steady track to look like a ball, the
        // dot would be one.
        var lenient = TrajectoryTracker.EvidenceCriteria()
        lenient.rollingMinimumBallLikeFraction = 0
        let scene = BlobScene(frameCount: 60, sources: [dot, word], seed: seed)
        #expect(scene.run(TrajectoryTracker(configuration: try .init(evidence: lenient))).finalObservations.count == 1)
    }

    @Test("a falling ball seen ragged (half hidden, against clutter) is still a flight")
    func raggedFlight() throws {
        var ball = TrackingFlightTests.ball
        ball.solidity = 0.7
        let found = try Self.trajectories([ball], frameCount: 36)
        try #require(found.count == 1)
        #expect(found[0].points.count == 36)
    }

    @Test("a ball merged with the hand carrying it along a falling arc makes no trajectory", arguments: [4, 5, 6] as [UInt64])
    func carriedInHand(seed: UInt64) throws {
        // Ball and hand make one ragged blob (solidity 0.5) at every other point, along a path
        // that happens to be a flight.
        var carried = BlobScene(frameCount: 36, sources: [TrackingFlightTests.ball], seed: seed)
        for frame in stride(from: 1, to: 36, by: 2) { carried.blobs[frame][0].solidity = 0.5 }
        #expect(carried.run(try TrajectoryTracker()).finalObservations.isEmpty)
        var lenient = TrajectoryTracker.EvidenceCriteria()
        lenient.maximumRaggedFraction = 1
        #expect(carried.run(TrajectoryTracker(configuration: try .init(evidence: lenient))).finalObservations.count == 1)
        // Ragged at a few points only (crossing clutter), it is a flight with every point.
        var scene = BlobScene(frameCount: 36, sources: [TrackingFlightTests.ball], seed: seed)
        for frame in [5, 14, 15, 27] { scene.blobs[frame][0].solidity = 0.5 }
        let found = scene.run(try TrajectoryTracker()).finalObservations
        try #require(found.count == 1)
        #expect(found[0].points.count == 36)
    }

    @Test("a blob cut by the frame's edge, sliding along it, makes no trajectory")
    func cutByEdge() throws {
        // Something larger than the frame shows, moving along its left edge.
        let cut = MovingBlob(path: { t in PixelPoint(x: 4, y: 100 + 200 * t) }, radius: 10)
        #expect(try Self.trajectories([cut]).isEmpty)
        // The same motion clear of the edge is a rolling ball.
        let clear = MovingBlob(path: { t in PixelPoint(x: 40, y: 100 + 200 * t) }, radius: 10)
        #expect(try Self.trajectories([clear]).count == 1)
    }

    @Test("a ball thrown in from beyond the frame's edge is found from its first points")
    func enteringBall() throws {
        let ball = MovingBlob.ball(origin: PixelPoint(x: -20, y: 500), velocity: PixelVector(x: 500, y: -700))
        let found = try Self.trajectories([ball], frameCount: 36)
        try #require(found.count == 1)
        let firstVisible = (0..<36).first { ball.path(Double($0) / 30).map { $0.x >= 0 } ?? false }!
        #expect(found[0].points.first!.frame <= firstVisible + 1)
    }
}

@Suite struct TrackingContinuationTests {
    /// A ball falling at the rate the scenes' balls do (700 px/s², about 90 radii/s²).
    static func ball(radius: Double = 8, gravity: Double = 700) -> MovingBlob {
        MovingBlob.ball(
            origin: PixelPoint(x: 200, y: 600), velocity: PixelVector(x: 300, y: -600), gravity: gravity, radius: radius)
    }

    /// The ball's blob in `frames` moved `offset` off the ball, as when the detection merges
    /// with something behind it or splits at the apex.
    static func trajectories(of ball: MovingBlob, displacing frames: ClosedRange<Int>, by offset: PixelVector) throws
        -> [TrajectoryObservation]
    {
        var scene = BlobScene(frameCount: 36, sources: [ball], seed: 3)
        for frame in frames {
            scene.blobs[frame][0].center.x += offset.x
            scene.blobs[frame][0].center.y += offset.y
        }
        return scene.run(try TrajectoryTracker()).finalObservations
    }

    @Test("a flight keeps every point, under one uuid, through detections displaced off its path", arguments: [
        PixelVector(x: 6, y: 4),   // merged with clutter beside it
        PixelVector(x: 0, y: -7),  // the leading half of a ball split in two
    ])
    func displacedDetections(offset: PixelVector) throws {
        // Far beyond the centroid noise (0.5 px), within the ball's radius (8 px).
        let ball = Self.ball()
        let trajectories = try Self.trajectories(of: ball, displacing: 14...15, by: offset)
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
        // Reported where they were found, but not fitted: the flight after them stays on the ball.
        for point in trajectories[0].points where point.frame > 15 {
            let pixel = point.location.pixels(width: BlobScene.width, height: BlobScene.height)
            let truth = ball.path(point.time)!
            #expect(PixelVector(x: pixel.x - truth.x, y: pixel.y - truth.y).length < 1.5)
        }
    }

    @Test("one detection a little off the path, taken into the fit, does not stop the flight fitting the points after it")
    func oneStrayInTheWindow() throws {
        // Centres a little noisier than assumed (0.6 px against 0.5), and the one in frame 20
        // 2 px off: inside the flight's gate, so fitted, and enough to leave the ten latest
        // points a poor fit. Without setting it aside, the points after it go unfitted.
        var scene = BlobScene(frameCount: 36, sources: [Self.ball()], noise: 0.6, seed: 6)
        scene.blobs[20][0].center.y += 2
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
    }

    /// A confirmed flight takes a detection into its fit only if the latest points fit with it:
    /// a stray may be set aside among the older points, never the one being taken. Here the
    /// ball merges with something beside it for three frames, its centre pulled 3.5 px sideways
    /// (exact centres otherwise, so only the pull counts): each pulled point fits as it comes,
    /// bending the fit, and the ball back on its path lies inside the flight's gate but off
    /// that bent fit. Kept out of the fit (displaced) it lets the flight straighten again; set
    /// aside as the window's one stray and taken in, it would leave three pulled points that no
    /// later window can fit, and the flight would end there, or go on under a new uuid.
    @Test(
        "a ball merged with something beside it for three frames keeps its flight, under one uuid, when it comes back on its path",
        arguments: [12, 16, 20])
    func pulledAsideAndBack(firstPulledFrame: Int) throws {
        var scene = BlobScene(frameCount: 36, sources: [TrackingFlightTests.ball], noise: 0)
        for frame in firstPulledFrame..<(firstPulledFrame + 3) { scene.blobs[frame][0].center.x += 3.5 }
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1, "\(trajectories.map { $0.points.map(\.frame) })")
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
    }

    @Test("displaced detections keep a flight only as long as it may go unfitted (maximumMissedFrames)")
    func displacedTooLong() throws {
        // Seven frames 14 px off a ball of radius 20: the flight takes four, then ends. (A ball
        // that large falls at least 60 of its radii per second squared.)
        let ball = Self.ball(radius: 20, gravity: 1200)
        let trajectories = try Self.trajectories(of: ball, displacing: 14...20, by: PixelVector(x: 0, y: -14))
        let first = try #require(trajectories.first)
        #expect(first.points.last?.frame == 17)
    }
}

/// Apparent gravity and apparent radius shrink alike with distance, so a thrown ball falls a
/// fixed number of its own radii per second squared, at any depth: about 80 for a basketball,
/// 300 for a tennis ball. Something that curves down more gently for its size is not a ball
/// in flight (a marker going round a circle, a ball swung on an arm).
@Suite struct TrackingFallStrengthTests {
    static func trajectories(fallingRadiiPerSecondSquared strength: Double, seed: UInt64) -> [UUID] {
        let radius = 8.0
        let ball = MovingBlob.ball(
            origin: PixelPoint(x: 150, y: 500), velocity: PixelVector(x: 300, y: -400),
            gravity: strength * radius, radius: radius)
        let scene = BlobScene(frameCount: 45, sources: [ball], seed: seed)
        return scene.run(try! TrajectoryTracker()).uuids
    }

    @Test("a basketball-sized fall (80 radii/s²) is a flight", arguments: [31, 32, 33] as [UInt64])
    func basketballFalls(seed: UInt64) {
        #expect(Self.trajectories(fallingRadiiPerSecondSquared: 80, seed: seed).count == 1)
    }

    @Test("a curve falling 40 radii/s², gentler than any sports ball, is no flight", arguments: [34, 35, 36] as [UInt64])
    func gentleCurveIsNoFlight(seed: UInt64) {
        #expect(Self.trajectories(fallingRadiiPerSecondSquared: 40, seed: seed).isEmpty)
    }
}
