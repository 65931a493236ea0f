import Foundation
import TrajectoryKit

/// Something that makes one blob per frame while it is visible: a ball or a distractor.
struct MovingBlob: Sendable {
    /// Centre in full-frame pixels (top-left origin) at a time in seconds; nil while unseen.
    var path: @Sendable (Double) -> PixelPoint?
    var radius: Double
    var contrast = 40.0
    var solidity = 0.95
    var elongation = 1.1

    /// A ball thrown at `start` from `origin` with `velocity` (pixels/s) under `gravity`
    /// (pixels/s², down the frame), seen from `start` to `end` seconds.
    static func ball(
        origin: PixelPoint, velocity: PixelVector, gravity: Double = 1500, radius: Double = 8,
        start: Double = 0, end: Double = .infinity
    ) -> MovingBlob {
        MovingBlob(path: { time in
            guard time >= start - 1e-9, time <= end + 1e-9 else { return nil }
            let t = time - start
            return PixelPoint(x: origin.x + velocity.x * t, y: origin.y + velocity.y * t + 0.5 * gravity * t * t)
        }, radius: radius)
    }

    /// A ball dropped from y = 200 px while moving right at 250 px/s, bouncing off the ground at
    /// y = 650 px with 70 % of its speed; `fallTime` is when it hits the ground, in seconds.
    static func bouncingBall() -> (ball: MovingBlob, fallTime: Double) {
        let ground = 650.0, gravity = 1500.0
        let fallTime = (2 * (ground - 200) / gravity).squareRoot()
        let reboundSpeed = 0.7 * gravity * fallTime
        let ball = MovingBlob(path: { t in
            let x = 300 + 250 * t
            guard t > fallTime else { return PixelPoint(x: x, y: 200 + 0.5 * gravity * t * t) }
            let u = t - fallTime
            return PixelPoint(x: x, y: ground - reboundSpeed * u + 0.5 * gravity * u * u)
        }, radius: 8)
        return (ball, fallTime)
    }
}

/// A synthetic video: frame stamps and the blobs a detector would report in each frame.
struct BlobScene {
    static let width = 1280
    static let height = 720

    var stamps: [FrameStamp]
    var blobs: [[Blob]]

    /// `frameCount` frames at `frameRate`, each holding every visible source's blob with
    /// Gaussian centroid noise (`noise` pixels) and, from `clutter`, extra blobs per frame.
    init(
        frameCount: Int, frameRate: Double = 30, sources: [MovingBlob], noise: Double = 0.3,
        clutterPerFrame: Int = 0, seed: UInt64 = 1
    ) {
        var random = SeededGenerator(seed: seed)
        stamps = (0..<frameCount).map { FrameStamp(index: $0, time: Double($0) / frameRate) }
        blobs = stamps.map { stamp in
            var frameBlobs: [Blob] = []
            for source in sources {
                guard let center = source.path(stamp.time) else { continue }
                let noisy = PixelPoint(
                    x: center.x + random.gaussian(standardDeviation: noise),
                    y: center.y + random.gaussian(standardDeviation: noise))
                guard noisy.x >= 0, noisy.y >= 0, noisy.x < Double(Self.width), noisy.y < Double(Self.height)
                else { continue }
                frameBlobs.append(Blob(
                    center: noisy, radius: source.radius * (1 + random.gaussian(standardDeviation: 0.03)),
                    area: Int(Double.pi * source.radius * source.radius), contrast: source.contrast,
                    elongation: source.elongation, solidity: source.solidity))
            }
            for _ in 0..<clutterPerFrame {
                let radius = Double.random(in: 3...15, using: &random)
                frameBlobs.append(Blob(
                    center: PixelPoint(
                        x: Double.random(in: 0..<Double(Self.width), using: &random),
                        y: Double.random(in: 0..<Double(Self.height), using: &random)),
                    radius: radius, area: Int(Double.pi * radius * radius),
                    contrast: Double.random(in: 5...60, using: &random),
                    elongation: Double.random(in: 1...3, using: &random),
                    solidity: Double.random(in: 0.5...1, using: &random)))
            }
            return frameBlobs
        }
    }

    /// Runs `tracker` over every frame; the observations of each frame, in frame order.
    func run(_ tracker: TrajectoryTracker) -> [[TrajectoryObservation]] {
        zip(stamps, blobs).map { stamp, frameBlobs in
            tracker.update(blobs: frameBlobs, frame: stamp, frameWidth: Self.width, frameHeight: Self.height)
        }
    }

    /// Runs the scene with `motionBeside(frame, travel)` standing in for the detector's
    /// measure of what moved beside each blob (``BlobDetector/motionBeside(_:radius:travel:)``).
    func run(
        _ tracker: TrajectoryTracker, motionBeside: (_ frame: Int, _ travel: PixelVector) -> SideMotion?
    ) -> [[TrajectoryObservation]] {
        zip(stamps, blobs).map { stamp, frameBlobs in
            tracker.update(blobs: frameBlobs, frame: stamp, frameWidth: Self.width, frameHeight: Self.height) { _, _, travel in
                motionBeside(stamp.index, travel)
            }
        }
    }
}

/// Hands out UUIDs 1, 2, 3, … so tests can name the trajectory they expect.
final class SequentialIDs {
    private(set) var issued = 0

    func next() -> UUID {
        issued += 1
        return Self.id(issued)
    }

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!
    }
}

extension Array where Element == [TrajectoryObservation] {
    /// The distinct trajectory uuids reported, in order of first report.
    var uuids: [UUID] {
        var seen: [UUID] = []
        for observation in joined() where !seen.contains(observation.uuid) { seen.append(observation.uuid) }
        return seen
    }

    /// The latest observation of each trajectory.
    var finalObservations: [TrajectoryObservation] {
        uuids.map { uuid in joined().last { $0.uuid == uuid }! }
    }
}
