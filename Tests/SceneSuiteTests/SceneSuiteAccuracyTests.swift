import Foundation
import Testing
import TrajectoryEvaluation
import TrajectoryKit
import TrajectorySynth
import TrajectoryVideo

/// The accuracy targets, held on every scene of the catalogue with three seeds each: the same
/// clips `Scripts/accuracy-report` scores, made, encoded, detected and scored here end to end.
@Suite struct SceneSuiteAccuracyTests {
    static let seeds: [UInt64] = [1, 2, 3]

    /// Renders, encodes and detects one clip, and scores the result against its truth.
    static func score(_ scene: CatalogScene, seed: UInt64, frameRate: Int?, in folder: URL) throws -> FlightClipScore {
        let clip = try SceneExport.write(scene, seed: seed, to: folder, frameRate: frameRate)
        defer { try? FileManager.default.removeItem(at: clip.video) }
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        var collector = TrajectoryCollector()
        let summary = try VideoTrajectoryDetection.run(uri: clip.video.path, request: request) { frame in
            collector.add(frame.observations)
        }
        let report = TrajectoryReport(
            source: .init(
                uri: clip.video.path, width: summary.info.width, height: summary.info.height,
                frameRate: summary.info.frameRate, frameCount: summary.framesDecoded,
                duration: summary.duration, rotation: summary.info.rotation),
            request: .init(
                trajectoryLength: 10, frameAnalysisSpacing: 0, objectMinimumNormalizedRadius: 0,
                objectMaximumNormalizedRadius: 1, regionOfInterest: .full),
            trajectories: collector.trajectories(formattedBy: ReportFormatter(
                coordinates: .normalized, frameWidth: summary.info.width, frameHeight: summary.info.height)))
        return try FlightScorer().score(report, against: clip.truth, clip: SceneExport.baseName(scene, seed: seed))
    }

    /// Scores every (scene, seed) of `jobs`, two clips at a time (the machines have two cores),
    /// rendered at `frameRate` or each scene's own.
    static func evaluate(_ jobs: [(CatalogScene, UInt64)], frameRate: Int? = nil) throws -> FlightEvaluation {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-suite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = ResultSlots<FlightClipScore>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: jobs.count, by: 2) {
                results.set(index, Result { try score(jobs[index].0, seed: jobs[index].1, frameRate: frameRate, in: folder) })
            }
        }
        return FlightEvaluation(clips: try results.values(), options: .standard)
    }

    /// Every scene with every seed.
    static let evaluation: Result<FlightEvaluation, any Error> = Result {
        try evaluate(CatalogScene.allCases.flatMap { scene in seeds.map { (scene, $0) } })
    }

    @Test("over every scene: recall and precision ≥ 0.95, mean point error ≤ 1.5 px")
    func overall() throws {
        let total = try Self.evaluation.get().total
        #expect(total.metrics.recall >= 0.95)
        #expect(total.metrics.precision >= 0.95)
        let error = try #require(total.metrics.meanPointError)
        #expect(error <= 1.5)
    }

    /// Every scene holds the floor. Scenes that once missed it, and what brought each up (the
    /// test fails if that is undone): walkers, the detector splitting a ball out of a walker's
    /// region (``MovingRegionSplitter``; 0.833 without it); no-ball-clutter, the tracker seeing
    /// the arm beside a swung ball (``SideMotion``; seed 3 gives two false trajectories without
    /// it); carried-ball, a track on faint clutter restarting from a much clearer blob
    /// (`BlobCriteria.newObjectContrastRatio`; 0.800 without it, seed 3's second flight lost).
    @Test("no scene below 0.85 recall or precision", arguments: CatalogScene.allCases)
    func perScene(scene: CatalogScene) throws {
        let evaluation = try Self.evaluation.get()
        let row = try #require(evaluation.scenes.first { $0.name == scene.rawValue })
        let problems = evaluation.problems.filter { $0.hasPrefix(scene.rawValue + "-") }
        #expect(row.metrics.recall >= 0.85 && row.metrics.precision >= 0.85, "\(problems)")
    }

    /// The shake scene's seeds 4 to 11, beyond the suite's: a camera shaking by 2 to 5 px bends
    /// every path in the frame by as much, and before the tracker followed balls in the
    /// scene's coordinates only 13 of these 20 flights were found, under 16 uuids.
    @Test("a hand-held camera's shake, shake scene seeds 4 to 11: recall ≥ 0.9, one uuid per flight, no false trajectory")
    func shakenCamera() throws {
        let total = try Self.evaluate((4...11).map { (CatalogScene.shake, UInt64($0)) }).total
        #expect(total.counts.flights == 20)
        #expect(total.metrics.recall >= 0.9)
        #expect(total.counts.trajectoriesOnFoundFlights == total.counts.foundFlights)
        #expect(total.counts.falseTrajectories == 0)
    }

    /// Distractors seed 10, beyond the suite's seeds: a bus drifting a pixel a frame, whose
    /// windows' edges are blobs of radius 6. The tracker kept 6 frames for telling whether
    /// things move together; at that pace the edges never moved a radius within them, so four
    /// of them passed for rolling balls. Now it keeps 12, and sees them move as one.
    @Test("a bus drifting a pixel a frame (distractors seed 10): both flights found, its windows make no trajectory")
    func slowLargeObject() throws {
        let total = try Self.evaluate([(.distractors, 10)]).total
        #expect(total.counts.foundFlights == 2 && total.counts.flights == 2)
        #expect(total.counts.falseTrajectories == 0)
    }

    /// Low-contrast seed 8, beyond the suite's seeds: a faint ball (radius 8.8 px) often seen
    /// only in part, its blobs' radii from 2 to 6 px. Radius steadiness is a cue for confirming
    /// a flight; applied to keeping one, it split this flight in two.
    @Test("a faint ball seen in part keeps one trajectory (low-contrast seed 8)")
    func faintBallSeenInPart() throws {
        let total = try Self.evaluate([(.lowContrast, 8)]).total
        #expect(total.counts.foundFlights == 1)
        #expect(total.counts.trajectoriesOnFoundFlights == 1)
    }

    /// Multi-ball seed 6, beyond the suite's seeds: one flight is followed by a track that is
    /// confirmed, lost and dropped, and then by a second that is confirmed later. Backfilling
    /// the second's start reached back into the first's frames; it must stop at points that
    /// another trajectory reported, or the flight is reported twice (a false trajectory).
    @Test("a trajectory backfilled to its start does not repeat another's points (multi-ball seed 6)")
    func backfillStopsAtAnotherTrajectory() throws {
        let evaluation = try Self.evaluate([(.multiBall, 6)])
        #expect(evaluation.total.counts.foundFlights == 6)
        #expect(evaluation.total.counts.falseTrajectories == 0, "\(evaluation.problems)")
    }

    /// Toss-catch seed 4 at 60 frames a second: the track that began on the throwing hand stays
    /// tentative until the throw has left its points, while a track begun at the apex is
    /// confirmed first and backfilled over the same blobs. The first was then confirmed too, a
    /// second uuid on the flight; now the trajectory already reported takes its earlier points.
    @Test("a toss followed by two tracks at 60 fps is one trajectory over its flight (toss-catch seed 4)")
    func tossFollowedTwice() throws {
        let clip = try #require(Self.evaluate([(.tossCatch, 4)], frameRate: 60).clips.first)
        let toss = try #require(clip.flights.first { $0.id == 0 })
        #expect(toss.status == .found && toss.trajectories.count == 1, "\(toss)")
        #expect(clip.counts.falseTrajectories == 0, "\(clip.trajectories)")
    }

    @Test("clips with motion and no ball give no trajectory at all")
    func noBallScenes() throws {
        let evaluation = try Self.evaluation.get()
        let noBall = evaluation.scenes.filter { $0.counts.flights == 0 && $0.name != "total" }
        #expect(noBall.count == 2)
        for row in noBall {
            #expect(row.counts.falseTrajectories == 0, "\(row.name)")
        }
    }
}

/// Results filled in by several threads, one slot each.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Result<Value, any Error>?]
    private let lock = NSLock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock { slots[index] = result }
    }

    /// Every value, or the first error.
    func values() throws -> [Value] {
        try lock.withLock { slots }.map { try $0!.get() }
    }
}
