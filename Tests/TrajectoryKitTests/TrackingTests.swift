import Foundation
import Testing
import TrajectoryKit

/// Distance in pixels between a reported (normalized) location and a pixel position.
private func pixelDistance(_ location: NormalizedPoint, _ truth: PixelPoint) -> Double {
    let pixel = location.pixels(width: BlobScene.width, height: BlobScene.height)
    return PixelVector(x: pixel.x - truth.x, y: pixel.y - truth.y).length
}

@Suite struct TrackingConfigurationTests {
    @Test("trajectoryLength below 5 is rejected with a message naming the allowed range", arguments: [4, 0, -3, 1001])
    func rejectsLength(length: Int) {
        #expect {
            _ = try TrajectoryTracker(trajectoryLength: length)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.parameter == "trajectoryLength" && "\(error)".contains("5...1000") && "\(error)".contains("\(length)")
        }
    }

    @Test("trajectoryLength from 5 up is accepted", arguments: [5, 10, 20, 1000])
    func acceptsLength(length: Int) throws {
        #expect(try TrajectoryTracker(trajectoryLength: length).configuration.trajectoryLength == length)
    }

    @Test("the default length is Vision's 10")
    func defaultLength() throws {
        #expect(try TrajectoryTracker.Configuration().trajectoryLength == 10)
    }

    @Test("other out-of-range settings are rejected too, by name")
    func rejectsOtherSettings() {
        var flight = TrajectoryTracker.FlightCriteria()
        flight.maximumTilt = -1
        #expect {
            _ = try TrajectoryTracker.Configuration(flight: flight)
        } throws: { error in
            (error as? ConfigurationError)?.parameter == "maximumTilt"
        }
        #expect(throws: ConfigurationError.self) { _ = try TrajectoryTracker.Configuration(maximumMissedFrames: -1) }
    }
}

@Suite struct TrackingFlightTests {
    static let throwOrigin = PixelPoint(x: 200, y: 600)
    static let throwVelocity = PixelVector(x: 300, y: -900)
    static let ball = MovingBlob.ball(origin: throwOrigin, velocity: throwVelocity)

    @Test("one clean flight: reported from its trajectoryLength-th point on, every frame, as Vision does", arguments: [5, 10, 20])
    func cleanFlight(trajectoryLength: Int) throws {
        let scene = BlobScene(frameCount: 36, sources: [Self.ball])
        let ids = SequentialIDs()
        let tracker = try TrajectoryTracker(trajectoryLength: trajectoryLength, makeID: ids.next)
        let perFrame = scene.run(tracker)

        let firstReported = try #require(perFrame.firstIndex { !$0.isEmpty })
        #expect(firstReported == trajectoryLength - 1)
        for frame in firstReported..<perFrame.count {
            try #require(perFrame[frame].count == 1, "frame \(frame)")
            let observation = perFrame[frame][0]
            let pointCount = frame + 1
            #expect(observation.uuid == SequentialIDs.id(1))
            #expect(observation.points.map(\.frame) == Array(0...frame))
            #expect(observation.detectedPoints.count == min(pointCount, trajectoryLength))
            #expect(observation.detectedPoints == observation.points.suffix(trajectoryLength).map(\.location))
            #expect(observation.timeRange.start == 0)
            #expect(abs(observation.timeRange.duration - Double(frame) / 30) < 1e-12)

            let fit = try #require(ParabolaFit(points: observation.detectedPoints))
            #expect(observation.equationCoefficients == fit.coefficients)
            #expect(observation.projectedPoints.count == 5)
            for (projected, detected) in zip(observation.projectedPoints, observation.detectedPoints.suffix(5)) {
                #expect(projected.x == detected.x)
                #expect(projected.y == fit.coefficients.evaluate(at: detected.x))
            }
            #expect(observation.confidence > 0.5 && observation.confidence <= 1)
            #expect(abs(observation.movingAverageRadius * Double(BlobScene.width) / 8 - 1) < 0.05)
            for point in observation.points {
                #expect(pixelDistance(point.location, Self.ball.path(point.time)!) < 1.5)
                #expect(point.time == Double(point.frame) / 30)
            }
        }
        #expect(ids.issued == 1)
    }

    /// The tracker looks for blobs near a track by their columns, in order; a caller's blob whose
    /// column is not a number cannot be ordered, and must not make it miss the others.
    @Test("blobs with a centre that is not a number, among clutter, hide no ball: the flight is found as without them")
    func blobsWithoutPosition() throws {
        let scene = BlobScene(frameCount: 36, sources: [Self.ball], clutterPerFrame: 20)
        let expected = scene.run(try TrajectoryTracker(makeID: SequentialIDs().next))
        let broken = Blob(center: PixelPoint(x: .nan, y: 100), radius: 8, area: 200, contrast: 40)
        let tracker = try TrajectoryTracker(makeID: SequentialIDs().next)
        let perFrame = zip(scene.stamps, scene.blobs).map { stamp, frameBlobs in
            tracker.update(
                blobs: frameBlobs.flatMap { [broken, $0] }, frame: stamp, frameWidth: BlobScene.width,
                frameHeight: BlobScene.height)
        }
        #expect(expected.joined().count > 20)
        let isSame = perFrame.map { $0.map(\.detectedPoints) } == expected.map { $0.map(\.detectedPoints) }
        #expect(isSame, "observations a frame: \(perFrame.map(\.count)), without those blobs \(expected.map(\.count))")
    }

    @Test("two flights crossing in the air: two uuids, each point on its own flight")
    func crossingFlights() throws {
        let left = MovingBlob.ball(origin: PixelPoint(x: 200, y: 600), velocity: PixelVector(x: 400, y: -900))
        let right = MovingBlob.ball(origin: PixelPoint(x: 1080, y: 600), velocity: PixelVector(x: -400, y: -800))
        let scene = BlobScene(frameCount: 48, sources: [left, right], seed: 7)
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations

        try #require(trajectories.count == 2)
        for (trajectory, flight) in zip(trajectories, [left, right]) {
            // Each is seen from frame 0 until it drops out of the bottom (after frame 35), on
            // its own path throughout.
            #expect(trajectory.points.map(\.frame) == Array(0..<trajectory.points.count))
            #expect(trajectory.points.count >= 36)
            for point in trajectory.points {
                #expect(pixelDistance(point.location, flight.path(point.time)!) < 1.5)
            }
        }
    }

    @Test("a bounce ends one trajectory and starts another with a new uuid")
    func bounce() throws {
        let (ball, fallTime) = MovingBlob.bouncingBall()
        let scene = BlobScene(frameCount: 54, sources: [ball], seed: 3)
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations

        try #require(trajectories.count == 2)
        #expect(trajectories[0].uuid != trajectories[1].uuid)
        #expect(trajectories[0].points.allSatisfy { $0.time <= fallTime })
        #expect(trajectories[1].points.allSatisfy { $0.time > fallTime })
        // Nearly the whole of each arc is kept.
        #expect(trajectories[0].points.count >= Int(fallTime * 30) - 1)
        #expect(trajectories[1].points.last?.frame == 53)
    }

    @Test("a ball hidden for three frames on its path keeps its uuid")
    func shortOcclusion() throws {
        let hidden = (15.0 / 30 - 0.001)...(17.0 / 30 + 0.001)
        let ball = MovingBlob(path: { hidden.contains($0) ? nil : Self.ball.path($0) }, radius: 8)
        let scene = BlobScene(frameCount: 36, sources: [ball], seed: 5)
        let perFrame = scene.run(try TrajectoryTracker())

        let trajectories = perFrame.finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<15) + Array(18..<36))
        #expect(perFrame[15...17].allSatisfy { $0.isEmpty })
        // The gap lowers the confidence while it is among the latest points.
        #expect(perFrame[18][0].confidence < perFrame[14][0].confidence)
    }

    @Test("a lob filmed at 60 frames a second keeps its uuid through its slow apex")
    func slowApex() throws {
        // Thrown up at 600 px/s while drifting 30 px/s: around its apex the ball moves less
        // than two radii in ten frames, which a confirmed flight must not take for a stop.
        let ball = MovingBlob.ball(origin: PixelPoint(x: 600, y: 650), velocity: PixelVector(x: 30, y: -600))
        let scene = BlobScene(frameCount: 48, frameRate: 60, sources: [ball], seed: 11)
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations

        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.map(\.frame) == Array(0..<48))
    }

    @Test("a ball that leaves the frame ends its trajectory; coming back in starts a new one")
    func leavesAndReenters() throws {
        // Thrown up through the top edge: above the frame from 0.456 s to 0.877 s.
        let ball = MovingBlob.ball(origin: PixelPoint(x: 300, y: 300), velocity: PixelVector(x: 200, y: -1000))
        let scene = BlobScene(frameCount: 45, sources: [ball], seed: 9)
        let trajectories = scene.run(try TrajectoryTracker(trajectoryLength: 5)).finalObservations

        try #require(trajectories.count == 2)
        #expect(trajectories[0].points.allSatisfy { $0.time < 0.46 })
        #expect(trajectories[1].points.allSatisfy { $0.time > 0.87 })
    }

    @Test("a ball rolling in a straight line at constant speed is a trajectory")
    func rolling() throws {
        let ball = MovingBlob(path: { t in PixelPoint(x: 100 + 400 * t, y: 650) }, radius: 10)
        let scene = BlobScene(frameCount: 60, sources: [ball], seed: 4)
        let trajectories = scene.run(try TrajectoryTracker()).finalObservations

        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.count == 60)
        #expect(abs(trajectories[0].equationCoefficients.a) < 1)
    }

    @Test("low-contrast detections can extend a flight but never start one")
    func weakBlobs() throws {
        var faint = Self.ball
        faint.contrast = 4
        let faintOnly = BlobScene(frameCount: 36, sources: [faint])
        #expect(faintOnly.run(try TrajectoryTracker()).uuids.isEmpty)

        // Faint for frames 12 to 16 only: the flight goes through them.
        var mixed = BlobScene(frameCount: 36, sources: [Self.ball])
        for frame in 12...16 { mixed.blobs[frame][0].contrast = 4 }
        let trajectories = mixed.run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.count == 36)
    }

    @Test("a fast ball's motion-blur streak starts a track")
    func blurStreak() throws {
        // 1500 px/s at 30 fps, radius 7: a streak 4.6 times as long as wide.
        var streak = MovingBlob.ball(origin: PixelPoint(x: 100, y: 400), velocity: PixelVector(x: 1500, y: -300), radius: 7)
        streak.elongation = 4.6
        let trajectories = BlobScene(frameCount: 24, sources: [streak]).run(try TrajectoryTracker()).finalObservations
        try #require(trajectories.count == 1)
        #expect(trajectories[0].points.first?.frame == 0)
    }

    @Test("the same blobs give the same observations; reset forgets every track")
    func deterministicAndReset() throws {
        let scene = BlobScene(frameCount: 36, sources: [Self.ball])
        let first = scene.run(try TrajectoryTracker(makeID: SequentialIDs().next))
        let second = scene.run(try TrajectoryTracker(makeID: SequentialIDs().next))
        #expect(first == second)

        let ids = SequentialIDs()
        let tracker = try TrajectoryTracker(makeID: ids.next)
        _ = BlobScene(frameCount: 20, sources: [Self.ball]).run(tracker)
        tracker.reset()
        let afterReset = scene.run(tracker)
        #expect(afterReset.uuids == [SequentialIDs.id(2)])
        #expect(afterReset.finalObservations.first?.points.count == 36)
    }

    @Test("a tracker that has recycled many tracks reports the same flight as a new one")
    func recycledTracks() throws {
        // Clutter starts and drops dozens of tracks a frame, and two flights end; the tracker
        // reuses their tracks.
        let recycled = try TrajectoryTracker()
        let earlier = [Self.ball, MovingBlob.ball(origin: PixelPoint(x: 900, y: 600), velocity: PixelVector(x: -250, y: -800))]
        let warmUp = BlobScene(frameCount: 120, sources: earlier, clutterPerFrame: 40, seed: 8).run(recycled)
        try #require(warmUp.uuids.count >= 2)
        recycled.reset()
        let scene = BlobScene(frameCount: 36, sources: [Self.ball])
        let fromRecycled = scene.run(recycled).finalObservations
        let fromNew = scene.run(try TrajectoryTracker()).finalObservations
        try #require(fromNew.count == 1)
        try #require(fromRecycled.count == 1)
        #expect(fromRecycled[0].points == fromNew[0].points)
        #expect(fromRecycled[0].equationCoefficients == fromNew[0].equationCoefficients)
        #expect(fromRecycled[0].confidence == fromNew[0].confidence)
    }
}

@Suite struct TrackingDistractorTests {
    static let frameCount = 300

    static func trajectories(_ sources: [MovingBlob], clutter: Int = 0, seed: UInt64) throws -> [TrajectoryObservation] {
        let scene = BlobScene(frameCount: frameCount, sources: sources, clutterPerFrame: clutter, seed: seed)
        return scene.run(try TrajectoryTracker()).finalObservations
    }

    @Test("random clutter (25 blobs a frame) makes no trajectory", arguments: [21, 22, 23] as [UInt64])
    func clutter(seed: UInt64) throws {
        #expect(try Self.trajectories([], clutter: 25, seed: seed).isEmpty)
    }

    @Test("a blob moving in a circle (radius 150 px, period 1.5 s) makes no trajectory", arguments: [31, 32, 33] as [UInt64])
    func circle(seed: UInt64) throws {
        let circling = MovingBlob(path: { t in
            let angle = 2 * Double.pi * t / 1.5
            return PixelPoint(x: 640 + 150 * cos(angle), y: 360 + 150 * sin(angle))
        }, radius: 8)
        #expect(try Self.trajectories([circling], seed: seed).isEmpty)
    }

    @Test("a stationary blinking blob makes no trajectory")
    func blinking() throws {
        let blinker = MovingBlob(path: { t in
            Int((t * 30).rounded()) % 10 < 5 ? PixelPoint(x: 500, y: 300) : nil
        }, radius: 10)
        #expect(try Self.trajectories([blinker], seed: 41).isEmpty)
    }

    @Test("a large blob walking at constant speed and bobbing makes no trajectory", arguments: [51, 52, 53] as [UInt64])
    func walker(seed: UInt64) throws {
        // A torso-sized blob at walking pace, bobbing 6 px at two steps a second.
        let walker = MovingBlob(path: { t in
            PixelPoint(x: 100 + 120 * t, y: 450 + 6 * sin(2 * Double.pi * 2 * t))
        }, radius: 30)
        #expect(try Self.trajectories([walker], seed: seed).isEmpty)
    }

    @Test("a blob accelerating up the frame (anti-gravity) makes no trajectory", arguments: [800.0, 1500, 3000])
    func antiGravity(upwardAcceleration: Double) throws {
        let rising = MovingBlob.ball(
            origin: PixelPoint(x: 200, y: 650), velocity: PixelVector(x: 300, y: -100), gravity: -upwardAcceleration)
        #expect(try Self.trajectories([rising], seed: 61).isEmpty)
    }

    @Test("a real flight is still found among 25 clutter blobs a frame")
    func flightInClutter() throws {
        let ball = TrackingFlightTests.ball
        let found = try Self.trajectories([ball], clutter: 25, seed: 71)
        try #require(found.count == 1)
        #expect(found[0].points.count >= 30)
        for point in found[0].points {
            #expect(pixelDistance(point.location, ball.path(point.time)!) < 1.5)
        }
    }
}
