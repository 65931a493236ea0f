import Foundation
import Testing

@testable import TrajectoryKit

/// On busy frames a helper thread measures some of the moving regions whole
/// (``SharedRegionMeasurement``); the detector must find exactly the blobs it finds measuring
/// every region on its own thread.
@Suite struct SharedRegionMeasurementTests {
    /// Thirty balls of radius 3 to 9 crossing a textured, noisy frame at 1 to 12 px a frame in
    /// all directions: slow ones overlap where they were (measured whole against older frames),
    /// fast ones do not, and some cross one another.
    static func busyFrames(count: Int) -> [LumaImage] {
        var scene = DetectionScene(width: 480, height: 270, noiseSigma: 2.5, seed: 5)
        var generator = SeededGenerator(seed: 17)
        let balls = (0..<30).map { _ in
            (start: PixelPoint(x: .random(in: 20...460, using: &generator), y: .random(in: 20...250, using: &generator)),
             velocity: PixelPoint(x: .random(in: -12...12, using: &generator), y: .random(in: -8...8, using: &generator)),
             radius: Double.random(in: 3...9, using: &generator), luma: Double.random(in: 180...240, using: &generator))
        }
        return (0..<count).map { frame in
            scene.frame(balls.map { ball in
                let t = Double(frame)
                return .ball(
                    at: PixelPoint(x: ball.start.x + ball.velocity.x * t, y: ball.start.y + ball.velocity.y * t),
                    radius: ball.radius, luma: ball.luma)
            })
        }
    }

    @Test("the blobs of every busy frame are the same whether a helper thread measures regions or not, and it does measure some")
    func sameBlobsWithHelper() {
        var alone = BlobDetector()
        alone.wholeMeasurement = SharedRegionMeasurement(sharing: .never)
        var shared = BlobDetector()
        shared.wholeMeasurement = SharedRegionMeasurement(sharing: .always)
        var blobCount = 0
        for (index, frame) in Self.busyFrames(count: 30).enumerated() {
            let expected = alone.detect(frame)
            let found = shared.detect(frame)
            #expect(found == expected, "frame \(index)")
            blobCount += expected.count
        }
        #expect(blobCount >= 27 * 10, "the frames are busy: \(blobCount) blobs")
        #expect(shared.wholeMeasurement.regionsMeasuredByHelper > 0)
        #expect(alone.wholeMeasurement.regionsMeasuredByHelper == 0)
    }

    /// Which thread measures which region depends on timing. Were each thread's buffers sized
    /// only by the regions it measured itself, a thread would allocate whenever it happened to
    /// measure a region larger than any it had, though not larger than any the detector had
    /// (the benchmarks caught that as a rare frame that allocated, long after warming up).
    @Test("each shared frame starts with both threads' buffers as large as the larger of the two")
    func buffersGrowTogether() {
        var detector = BlobDetector()
        detector.wholeMeasurement = SharedRegionMeasurement(sharing: .always)
        var framesEndingUnequal = 0
        for (index, frame) in Self.busyFrames(count: 30).enumerated() {
            let before = detector.wholeMeasurement.bufferSizes
            _ = detector.detect(frame)
            let after = detector.wholeMeasurement.bufferSizes
            guard let helperBefore = before.helper, let helperAfter = after.helper else { continue }
            let largest = before.caller.larger(helperBefore)
            #expect(after.caller.holds(largest) && helperAfter.holds(largest), "frame \(index)")
            if after.caller != helperAfter { framesEndingUnequal += 1 }
        }
        // Otherwise the threads never grew apart, and there was nothing to share.
        #expect(framesEndingUnequal > 0)
    }

    @Test("the helper thread ends when its detector goes")
    func helperEndsWithDetector() async throws {
        weak var helperState: AnyObject?
        do {
            var detector = BlobDetector()
            detector.wholeMeasurement = SharedRegionMeasurement(sharing: .always)
            for frame in Self.busyFrames(count: 6) { _ = detector.detect(frame) }
            helperState = detector.wholeMeasurement.helperThreadState
            #expect(helperState != nil, "the helper started")
        }
        // The thread lets go of its state as it returns, soon after being told to stop.
        let deadline = Date().addingTimeInterval(5)
        while helperState != nil && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(helperState == nil)
    }

    /// Where many requests run side by side, each may be told to keep to its calling thread
    /// (`usesHelperThread`, the CLI's `--no-helper-thread`); a helper already started then goes.
    @Test(
        "a request told not to use a helper thread starts none, lets one it started go, and finds the same trajectories",
        .enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2, "only a second core shares busy frames"))
    func requestWithoutHelper() async throws {
        let frames = Self.busyFrames(count: 30)
        let withHelper = try DetectTrajectoriesRequest(trajectoryLength: 10, makeUUID: SequentialIDs().next)
        let alone = try DetectTrajectoriesRequest(trajectoryLength: 10, makeUUID: SequentialIDs().next)
        alone.usesHelperThread = false
        let foundWith = LatestObservations(of: withHelper), foundAlone = LatestObservations(of: alone)
        let handler = SequenceRequestHandler()
        for (index, frame) in frames.enumerated() {
            try handler.perform([withHelper, alone], on: frame, frame: FrameStamp(index: index, time: Double(index) / 30))
        }
        #expect(alone.helperThreadState == nil)
        weak let helperState = withHelper.helperThreadState
        #expect(helperState != nil, "the request started its helper on the busy frames")
        let byUUID = { (observations: [TrajectoryObservation]) in observations.sorted { $0.uuid.uuidString < $1.uuid.uuidString } }
        #expect(foundWith.trajectories.count >= 5, "the balls crossing the frame are followed")
        #expect(byUUID(foundWith.trajectories) == byUUID(foundAlone.trajectories))

        withHelper.usesHelperThread = false
        try handler.perform([withHelper], on: frames[0], frame: FrameStamp(index: frames.count, time: 1))
        let deadline = Date().addingTimeInterval(5)
        while helperState != nil && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(helperState == nil, "the helper thread ended")
    }
}

extension SharedRegionMeasurement.ThreadBufferSizes {
    /// Whether every buffer is at least as large as `other`'s.
    func holds(_ other: Self) -> Bool {
        let mine = refiner, theirs = other.refiner
        return mine.labels >= theirs.labels && mine.seedMotion >= theirs.seedMotion
            && mine.seedPixels >= theirs.seedPixels && mine.pendingRuns >= theirs.pendingRuns
            && outcomeSlots >= other.outcomeSlots
    }

    /// The larger of the two sizes, buffer by buffer.
    func larger(_ other: Self) -> Self {
        let mine = refiner, theirs = other.refiner
        return Self(
            refiner: ComparisonWindow.BufferSizes(
                labels: max(mine.labels, theirs.labels), seedMotion: max(mine.seedMotion, theirs.seedMotion),
                seedPixels: max(mine.seedPixels, theirs.seedPixels), pendingRuns: max(mine.pendingRuns, theirs.pendingRuns)),
            outcomeSlots: max(outcomeSlots, other.outcomeSlots))
    }
}
