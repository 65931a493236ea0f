import Foundation
import Testing
import TrajectoryKit

/// Told how far the camera moved the picture, the tracker follows balls in the scene's
/// coordinates, so a hand-held camera's shake does not bend their paths, and reports them where
/// they show in the frame.
@Suite struct TrackingCameraShakeTests {
    static let frameRate = 30.0
    static let ball = MovingBlob.ball(origin: PixelPoint(x: 200, y: 600), velocity: PixelVector(x: 300, y: -900))

    /// A hand-held camera's shake, as jerky as the synthetic shake scene's (whose curve is
    /// smooth): the picture's offset in each frame, a new random offset within `amplitude`
    /// pixels every `knotFrames` frames and straight lines between them.
    static func shake(frames: Int, amplitude: Double, knotFrames: Int = 5, seed: UInt64) -> [CameraMotion] {
        var random = SeededGenerator(seed: seed)
        let knots = (0...(frames / knotFrames + 1)).map { _ in
            CameraMotion(
                dx: Double.random(in: -amplitude...amplitude, using: &random),
                dy: Double.random(in: -amplitude...amplitude, using: &random))
        }
        return (0..<frames).map { frame in
            let (knot, fraction) = (frame / knotFrames, Double(frame % knotFrames) / Double(knotFrames))
            let (from, to) = (knots[knot], knots[knot + 1])
            return CameraMotion(dx: from.dx + (to.dx - from.dx) * fraction, dy: from.dy + (to.dy - from.dy) * fraction)
        }
    }

    /// `source` as a camera whose picture is offset by `offsets` (one per frame) shows it.
    static func filmed(_ source: MovingBlob, offsets: [CameraMotion]) -> MovingBlob {
        var shown = source
        shown.path = { time in
            let frame = min(offsets.count - 1, Int((time * frameRate).rounded()))
            return source.path(time).map { PixelPoint(x: $0.x + offsets[frame].dx, y: $0.y + offsets[frame].dy) }
        }
        return shown
    }

    /// Runs `tracker` over `scene`, telling it the camera's offset in each frame.
    static func run(_ scene: BlobScene, offsets: [CameraMotion], tracker: TrajectoryTracker) -> [[TrajectoryObservation]] {
        zip(scene.stamps, scene.blobs).map { stamp, blobs in
            tracker.update(
                blobs: blobs, frame: stamp, frameWidth: BlobScene.width, frameHeight: BlobScene.height,
                cameraOffset: offsets[stamp.index])
        }
    }

    @Test(
        "a flight filmed by a camera shaking by up to 5 px, a new direction every 4 frames, is one whole trajectory, reported within 1.5 px of where the ball shows in the frame",
        arguments: [1, 2, 3] as [UInt64])
    func shakenFlight(seed: UInt64) throws {
        let offsets = Self.shake(frames: 36, amplitude: 5, knotFrames: 4, seed: seed)
        let shown = Self.filmed(Self.ball, offsets: offsets)
        let scene = BlobScene(frameCount: 36, sources: [shown], seed: seed)
        let trajectories = Self.run(scene, offsets: offsets, tracker: try TrajectoryTracker()).finalObservations

        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<36))
        for point in trajectories[0].points {
            let truth = try #require(shown.path(point.time))
            let location = point.location
            let distance = hypot(
                location.x * Double(BlobScene.width) - truth.x, (1 - location.y) * Double(BlobScene.height) - truth.y)
            #expect(distance < 1.5, "frame \(point.frame)")
        }
    }

    @Test(
        "things moving together are still told apart from a ball under a far pan and a shake: scrolling letters and a head with its torso make no trajectory",
        arguments: [1, 2] as [UInt64])
    func neighboursInSceneCoordinates(seed: UInt64) throws {
        // The offset is taken off every blob alike, so neighbours must be compared in the same
        // (scene) coordinates as the track's ball: in frame coordinates they would lie 360 px away.
        let shake = Self.shake(frames: 60, amplitude: 5, knotFrames: 4, seed: seed)
        let offsets = shake.map { CameraMotion(dx: 300 + $0.dx, dy: -200 + $0.dy) }
        let velocity = PixelVector(x: 110, y: 0)
        let scenes: [(name: String, sources: [MovingBlob])] = [
            ("letters", TrackingIndependentMotionTests.board(from: PixelPoint(x: 100, y: 300), count: 6)),
            ("head and torso", [
                TrackingIndependentMotionTests.steady(from: PixelPoint(x: 200, y: 400), velocity: velocity, radius: 8),
                TrackingIndependentMotionTests.steady(
                    from: PixelPoint(x: 200, y: 400), velocity: velocity, offset: PixelVector(x: 0, y: 40), radius: 18),
            ]),
        ]
        for (name, sources) in scenes {
            let shown = sources.map { Self.filmed($0, offsets: offsets) }
            let scene = BlobScene(frameCount: 60, sources: shown, seed: seed)
            let trajectories = Self.run(scene, offsets: offsets, tracker: try TrajectoryTracker()).finalObservations
            #expect(trajectories.count == 0, "\(name)")
        }
    }

    /// Two scenes of `TrackingFlightTests`: a ball thrown up through the top edge (above the
    /// frame from 0.456 s to 0.877 s), and a ball hidden for three frames on its path.
    static let leavingAndHidden: [(name: String, ball: MovingBlob)] = [
        ("leaves the frame", MovingBlob.ball(origin: PixelPoint(x: 300, y: 300), velocity: PixelVector(x: 200, y: -1000))),
        ("hidden for three frames", MovingBlob(
            path: { ((15.0 / 30 - 0.001)...(17.0 / 30 + 0.001)).contains($0) ? nil : ball.path($0) }, radius: 8)),
    ]

    @Test(
        "a camera that has panned far and stays there changes nothing: the same observations as with no offset",
        arguments: 0..<2)
    func constantOffset(scenario: Int) throws {
        let (name, ball) = Self.leavingAndHidden[scenario]
        let scene = BlobScene(frameCount: 45, sources: [ball], seed: 9)
        // Taken in the scene's coordinates, every point would lie outside the frame.
        let panned = [CameraMotion](repeating: CameraMotion(dx: 1500, dy: -900), count: 45)
        let expected = scene.run(try TrajectoryTracker(trajectoryLength: 5, makeID: SequentialIDs().next))
        let observed = Self.run(
            scene, offsets: panned, tracker: try TrajectoryTracker(trajectoryLength: 5, makeID: SequentialIDs().next))

        #expect(expected.finalObservations.count == (scenario == 0 ? 2 : 1), "\(name)")
        try #require(observed.count == expected.count)
        for (frame, (seen, wanted)) in zip(observed, expected).enumerated() {
            try #require(seen.count == wanted.count, "\(name), frame \(frame)")
            for (a, b) in zip(seen, wanted) {
                #expect(a.uuid == b.uuid)
                #expect(a.points.map(\.frame) == b.points.map(\.frame))
                #expect(a.detectedPoints == b.detectedPoints, "\(name), frame \(frame)")
                #expect(a.projectedPoints == b.projectedPoints, "\(name), frame \(frame)")
                #expect(a.equationCoefficients == b.equationCoefficients, "\(name), frame \(frame)")
            }
        }
    }
}
