import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

/// The README's library examples, run for real on a sample clip, so they cannot go stale.
@Suite struct ReadmeExampleTests {
    static let clip = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleClips/walkers-1.mp4").path

    static func decodedFrames() throws -> [LumaImage] {
        var reader = try VideoReader(uri: clip)
        var frames: [LumaImage] = []
        while let (image, _) = try reader.nextImage() { frames.append(image) }
        return frames
    }

    @Test("frames from memory through SequenceRequestHandler find the sample clip's flight")
    func framesFromMemory() throws {
        let frames = try Self.decodedFrames()
        var uuids = Set<UUID>()
        // From the README:
        let request = try DetectTrajectoriesRequest(frameAnalysisSpacing: 0, trajectoryLength: 10)
        request.objectMaximumNormalizedRadius = 0.05   // ignore anything larger than a ball
        let handler = SequenceRequestHandler()

        for (index, image) in frames.enumerated() {   // frames: [LumaImage], 8-bit grey
            try handler.perform([request], on: image, frame: FrameStamp(index: index, time: Double(index) / 30))
            for trajectory in request.results ?? [] {
                uuids.insert(trajectory.uuid)
            }
        }
        #expect(uuids.count == 1)
    }

    @Test("VideoTrajectoryDetection.run reports the same flight from the file")
    func fromFile() throws {
        var uuids = Set<UUID>()
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let summary = try VideoTrajectoryDetection.run(uri: Self.clip, request: request) { frame in
            for trajectory in frame.observations {
                uuids.insert(trajectory.uuid)
            }
        }
        #expect(summary.framesDecoded == 99 && summary.framesAnalysed == 99 && summary.warnings.isEmpty)
        #expect(uuids.count == 1)
    }

    @Test("suitsSlowMotion suits the request to the video's rate before onOpen: 240 fps is analysed one frame in 8, 30 fps frame by frame")
    func slowMotionOnOpen() throws {
        let directory = try TemporaryDirectory()
        let slowMotion = directory.file("slow-motion.mp4")
        try MovingSquare(noise: 12).write(to: slowMotion, count: 48, settings: quickSettings(frameRate: 240))
        for (uri, step) in [(slowMotion, 8), (Self.clip, 1)] {
            var spacingsAtOpen: [Double] = [], analysedBeforeOpen = 0
            // From the README:
            let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
            let summary = try VideoTrajectoryDetection.run(uri: uri, request: request, suitsSlowMotion: true, onOpen: { _ in
                spacingsAtOpen.append(request.frameAnalysisSpacing)
            }) { frame in
                if spacingsAtOpen.isEmpty { analysedBeforeOpen += 1 }
            }
            let expectedSpacing = step == 1 ? 0 : 7.5 / 240
            #expect(spacingsAtOpen == [expectedSpacing] && analysedBeforeOpen == 0)
            // Frames 0, step, 2 × step, …
            #expect(summary.framesAnalysed == (summary.framesDecoded + step - 1) / step, "\(uri)")
            #expect(request.frameAnalysisSpacing == expectedSpacing)
        }
        // Without it, the request analyses every frame, as Vision does.
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let summary = try VideoTrajectoryDetection.run(uri: slowMotion, request: request) { _ in }
        #expect(summary.framesAnalysed == summary.framesDecoded && request.frameAnalysisSpacing == 0)
    }

    /// With one decoding thread (the default on two cores) FFmpeg decodes on the decoding
    /// thread itself; with more it hands frames over from its own frame threads.
    @Test(
        "frames handed over by the decoding thread give the points of frames decoded one at a time, however slow the analysis",
        arguments: [1, 3])
    func handedOverFrames(decodingThreads: Int) throws {
        func points(_ observations: [UUID: TrajectoryObservation]) -> [TrajectoryPoint] {
            observations.values.flatMap(\.points).sorted { $0.frame < $1.frame }
        }
        // Decoded one at a time and copied out, on this thread.
        var latest: [UUID: TrajectoryObservation] = [:]
        var reader = try VideoReader(uri: Self.clip)
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let handler = SequenceRequestHandler()
        while let (image, stamp) = try reader.nextImage() {
            try handler.perform([request], on: image, frame: stamp)
            for observation in request.results ?? [] { latest[observation.uuid] = observation }
        }
        let copied = points(latest)

        // Decoded ahead and handed over without a copy, to an analysis slow enough that the
        // decoder fills the queue and waits on it every frame.
        latest = [:]
        let handedOver = try DetectTrajectoriesRequest(trajectoryLength: 10)
        _ = try VideoTrajectoryDetection.run(uri: Self.clip, request: handedOver, decodingThreads: decodingThreads) {
            frame in
            for observation in frame.observations { latest[observation.uuid] = observation }
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(!copied.isEmpty)
        #expect(points(latest) == copied)
    }

    @Test("several streams analysed at once on different threads give the results of one at a time")
    func concurrentStreams() async throws {
        func pointsFound() throws -> [TrajectoryPoint] {
            var latest: [UUID: TrajectoryObservation] = [:]
            let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
            _ = try VideoTrajectoryDetection.run(uri: Self.clip, request: request) { frame in
                for observation in frame.observations { latest[observation.uuid] = observation }
            }
            return latest.values.flatMap(\.points).sorted { $0.frame < $1.frame }
        }
        let alone = try pointsFound()
        let together = try await withThrowingTaskGroup(of: [TrajectoryPoint].self) { group in
            for _ in 0..<4 { group.addTask { try pointsFound() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(!alone.isEmpty)
        #expect(together.allSatisfy { $0 == alone })
    }
}
