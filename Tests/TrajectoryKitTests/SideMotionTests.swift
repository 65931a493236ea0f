import Testing
import TrajectoryKit

/// The carrier cue: what moves beside a ball, across its path (``SideMotion``), as the
/// detector measures it and as the tracker weighs it.
@Suite struct SideMotionMeasureTests {
    static let radius = 6.0
    static let ballLuma = 200.0

    static func ballCentre(frame: Int) -> PixelPoint { PixelPoint(x: 120, y: 180 - 4 * Double(frame)) }

    /// The detector after six frames of a ball rising 4 px a frame, with or without an arm
    /// held out from it to the right (a bar 4 px thick, 44 px long, moving with it).
    static func detector(withArm: Bool) -> BlobDetector {
        var scene = DetectionScene(width: 320, height: 240, noiseSigma: 2, seed: 5)
        var detector = BlobDetector()
        for frame in 0..<6 {
            let centre = ballCentre(frame: frame)
            var objects = [SceneObject.ball(at: centre, radius: radius, luma: ballLuma)]
            if withArm {
                objects.append(SceneObject(
                    shape: .rectangle(minX: centre.x + radius, minY: centre.y - 2, width: 44, height: 4), luma: 150))
            }
            _ = detector.detect(scene.frame(objects))
        }
        return detector
    }

    @Test("an arm held out from a rising ball shows on its side of the path, and only there")
    func armBeside() throws {
        let travel = PixelVector(x: 0, y: -4)
        let beside = try #require(Self.detector(withArm: true).motionBeside(Self.ballCentre(frame: 5), radius: Self.radius, travel: travel))
        let (right, left) = beside.sides(towards: PixelVector(x: 1, y: 0))
        #expect(right >= 0.2, "the arm's side: \(right)")
        #expect(abs(left) < 0.05, "the open side: \(left)")
    }

    @Test("a ball with nothing beside it shows no side motion")
    func nothingBeside() throws {
        let travel = PixelVector(x: 0, y: -4)
        let beside = try #require(Self.detector(withArm: false).motionBeside(Self.ballCentre(frame: 5), radius: Self.radius, travel: travel))
        #expect(abs(beside.alongAcross) < 0.05 && abs(beside.opposite) < 0.05, "\(beside)")
    }

    @Test("no side motion is measured for a ball that did not move, or with no travel")
    func unknown() {
        let detector = Self.detector(withArm: true)
        #expect(detector.motionBeside(PixelPoint(x: 40, y: 40), radius: Self.radius, travel: PixelVector(x: 0, y: -4)) == nil)
        #expect(detector.motionBeside(Self.ballCentre(frame: 5), radius: Self.radius, travel: PixelVector(x: 0, y: 0)) == nil)
        #expect(BlobDetector().motionBeside(Self.ballCentre(frame: 5), radius: Self.radius, travel: PixelVector(x: 0, y: -4)) == nil)
    }
}

@Suite struct SideMotionTrackingTests {
    /// What moves beside the ball at a frame, given the direction across its travel: the
    /// motion on the side that direction points to, and on the other.
    typealias Beside = (_ frame: Int, _ across: PixelVector) -> (alongAcross: Double, opposite: Double)

    /// The trajectories found for `ball` over 36 frames with `beside` as the detector's measure.
    static func trajectories(
        _ ball: MovingBlob = TrackingFlightTests.ball, criteria: TrajectoryTracker.EvidenceCriteria = .init(),
        seed: UInt64 = 1, beside: @escaping Beside
    ) throws -> [TrajectoryObservation] {
        let scene = BlobScene(frameCount: 36, sources: [ball], seed: seed)
        let tracker = TrajectoryTracker(configuration: try .init(evidence: criteria))
        return scene.run(tracker) { frame, travel in
            let length = travel.length
            let across = PixelVector(x: -travel.y / length, y: travel.x / length)
            let (alongAcross, opposite) = beside(frame, across)
            return SideMotion(across: across, alongAcross: alongAcross, opposite: opposite)
        }.finalObservations
    }

    /// `motion` on the side of the path towards `direction` (fixed in the image), none on the other.
    static func towards(_ direction: PixelVector, _ motion: Double, across: PixelVector) -> (Double, Double) {
        across.x * direction.x + across.y * direction.y >= 0 ? (motion, 0) : (0, motion)
    }

    static let right = PixelVector(x: 1, y: 0)
    static let left = PixelVector(x: -1, y: 0)

    @Test("a ball with something moving beside it on the inner side of its curve all along (an arm to the shoulder) makes no trajectory", arguments: [1, 2, 3] as [UInt64])
    func carriedAlongCurve(seed: UInt64) throws {
        // An arm reaches from the ball to the shoulder it swings about, the centre of the
        // ball's curve: on the same side of its travel all along.
        #expect(try Self.trajectories(seed: seed) { _, _ in (0.2, 0) }.isEmpty)
        // The cue alone decides: with it switched off the same track is a flight.
        var lenient = TrajectoryTracker.EvidenceCriteria()
        lenient.carrierSideMotion = .infinity
        #expect(try Self.trajectories(criteria: lenient, seed: seed) { _, _ in (0.2, 0) }.count == 1)
    }

    @Test("a ball swung up and back down with the arm on its right makes no trajectory, though its travel reverses", arguments: [1, 2, 3] as [UInt64])
    func carriedUpAndDown(seed: UInt64) throws {
        // Straight up and back down at the top of a swing: the arm stays on the same side in
        // the picture while the ball's travel, and so its left and right, turn round.
        let swung = MovingBlob.ball(origin: PixelPoint(x: 400, y: 500), velocity: PixelVector(x: 0, y: -600))
        var lenient = TrajectoryTracker.EvidenceCriteria()
        lenient.carrierSideMotion = .infinity
        try #require(try Self.trajectories(swung, criteria: lenient, seed: seed) { _, _ in (0.2, 0) }.count == 1)
        #expect(try Self.trajectories(swung, seed: seed) { Self.towards(Self.right, 0.2, across: $1) }.isEmpty)
    }

    @Test("the same motion now on one side of the path, now on the other (clutter it passes), is a flight")
    func alternatingSides() throws {
        let found = try Self.trajectories { frame, across in
            Self.towards(frame.isMultiple(of: 2) ? Self.right : Self.left, 0.2, across: across)
        }
        try #require(found.count == 1)
        #expect(found[0].points.count == 36)
    }

    @Test("a hand beside the ball at the start and end of its flight only (thrown, caught) is a flight")
    func handAtTheEnds() throws {
        let found = try Self.trajectories { frame, _ in frame < 4 || frame >= 32 ? (0.5, 0) : (0.01, 0) }
        try #require(found.count == 1)
        #expect(found[0].points.count == 36)
    }

    @Test("faint motion beside the ball, under the threshold, is no carrier")
    func faint() throws {
        #expect(try Self.trajectories { _, _ in (0.05, 0) }.count == 1)
    }
}
