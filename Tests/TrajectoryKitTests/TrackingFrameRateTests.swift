import Foundation
import Testing
@testable import TrajectoryKit

/// The tracker's rules that count frames were tuned at 30 frames a second and stand for
/// lengths of time: at a higher rate they count as many frames as take the same time.
@Suite struct TrackingFrameRateTests {
    @Test("the pace is the analysed frames in the time of one at 30 frames a second, rounded",
          arguments: [
              (25.0, 1), (29.97, 1), (30.0, 1), (44.0, 1), (46.0, 2), (50.0, 2), (59.94, 2), (60.0, 2), (120.0, 4), (240.0, 8),
              (960.0, 32), (90_000.0, 32),
          ])
    func pace(frameRate: Double, expected: Int) {
        // Eleven intervals at the rate; how many does not change the rounding.
        #expect(FramePace(span: 11 / frameRate, intervals: 11).framesPerTunedFrame == expected)
    }

    @Test("frames with no measurable interval keep every rule as tuned")
    func paceWithoutTime() {
        #expect(FramePace(span: 0, intervals: 11).framesPerTunedFrame == 1)
        #expect(FramePace(span: 1, intervals: 0).framesPerTunedFrame == 1)
        #expect(FramePace(span: .nan, intervals: 11).framesPerTunedFrame == 1)
    }

    /// A blob going round a circle of `radius` pixels once in `period` seconds, as a light on a
    /// turning wheel does.
    static func circling(radius: Double, period: Double) -> MovingBlob {
        MovingBlob(path: { t in
            let angle = 2 * Double.pi * t / period
            return PixelPoint(x: 640 + radius * cos(angle), y: 360 + radius * sin(angle))
        }, radius: 7)
    }

    @Test("a blob circling makes no trajectory at 60 frames a second, as at 30",
          arguments: [(20.0, 1.0), (40.0, 1.0), (150.0, 1.5)], [30.0, 60.0])
    func circle(orbit: (radius: Double, period: Double), frameRate: Double) throws {
        for seed in [41, 42, 43] as [UInt64] {
            let scene = BlobScene(
                frameCount: Int(6 * frameRate), frameRate: frameRate,
                sources: [Self.circling(radius: orbit.radius, period: orbit.period)], seed: seed)
            let trajectories = scene.run(try TrajectoryTracker()).finalObservations
            #expect(trajectories.count == 0, "seed \(seed)")
        }
    }

    /// A ball thrown across the frame, unseen for `gap` frames from frame 30 (mid-flight, far
    /// from its apex), filmed at `frameRate`.
    static func gappedFlight(frameRate: Double, gap: Int) throws -> [[TrajectoryObservation]] {
        let ball = MovingBlob.ball(origin: PixelPoint(x: 100, y: 500), velocity: PixelVector(x: 500, y: -700), gravity: 900)
        var scene = BlobScene(frameCount: Int(2 * frameRate), frameRate: frameRate, sources: [ball], seed: 5)
        for frame in 30..<(30 + gap) { scene.blobs[frame].removeAll() }
        return scene.run(try TrajectoryTracker())
    }

    @Test("a flight unseen for as long as four frames take at 30 frames a second stays one trajectory at 60, and no longer")
    func missedFramesTakeTime() throws {
        let limit = try TrajectoryTracker.Configuration().maximumMissedFrames
        // At 30 frames a second: `limit` frames bridged, one more cuts the flight in two.
        #expect(try Self.gappedFlight(frameRate: 30, gap: limit).uuids.count == 1)
        #expect(try Self.gappedFlight(frameRate: 30, gap: limit + 1).uuids.count == 2)
        // At 60, the same time is twice the frames.
        #expect(try Self.gappedFlight(frameRate: 60, gap: 2 * limit).uuids.count == 1)
        #expect(try Self.gappedFlight(frameRate: 60, gap: 2 * limit + 1).uuids.count == 2)
    }
}
