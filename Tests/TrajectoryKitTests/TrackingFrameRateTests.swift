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

    /// The circles are seen from the first frame, so no track on them holds a past to count
    /// against it; the slow ones (a light going round once in two seconds) turn only 30° in the
    /// sixth of a second that ten points span at 60 frames a second, an arc one constant
    /// acceleration fits within the noise.
    @Test("a blob circling makes no trajectory at 60 frames a second, as at 30",
          arguments: [(20.0, 1.0), (40.0, 1.0), (150.0, 1.5), (30.0, 1.5), (48.0, 1.9), (60.0, 2.5)], [30.0, 60.0])
    func circle(orbit: (radius: Double, period: Double), frameRate: Double) throws {
        for seed in [41, 42, 43] as [UInt64] {
            let scene = BlobScene(
                frameCount: Int(6 * frameRate), frameRate: frameRate,
                sources: [Self.circling(radius: orbit.radius, period: orbit.period)], seed: seed)
            let trajectories = scene.run(try TrajectoryTracker()).finalObservations
            #expect(trajectories.count == 0, "seed \(seed)")
        }
    }

    /// A ball thrown at `start` seconds across a 60-frames-a-second video of one second.
    static func flight60(start: Double) throws -> [[TrajectoryObservation]] {
        let ball = MovingBlob.ball(
            origin: PixelPoint(x: 100, y: 400), velocity: PixelVector(x: 600, y: -500), gravity: 900, start: start)
        return BlobScene(frameCount: 60 + Int(60 * start), frameRate: 60, sources: [ball], seed: 3)
            .run(try TrajectoryTracker())
    }

    @Test("a ball already in flight as the video begins is found from its first frame at 60 frames a second, on twice the points")
    func flightFromTheFirstFrame() throws {
        let length = try TrajectoryTracker.Configuration().trajectoryLength
        let observations = try Self.flight60(start: 0)
        #expect(observations.uuids.count == 1)
        #expect(observations.finalObservations.first?.points.first?.frame == 0)
        // Nothing shows where its motion began, so it is judged on the time ten points span at
        // 30 frames a second.
        #expect(observations.firstIndex { !$0.isEmpty } == 2 * length - 1)
        // Thrown later, the same flight is confirmed on ten points.
        let thrownLater = try Self.flight60(start: 0.5)
        #expect(thrownLater.uuids.count == 1)
        #expect(thrownLater.firstIndex { !$0.isEmpty } == 30 + length - 1)
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
