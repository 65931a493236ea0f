import Foundation
import Testing
import TrajectoryEvaluation
import TrajectoryKit

/// `trajectories detect` on the bundled sample clips, scored against their ground truth.
@Suite struct SampleClipAccuracyTests {
    static let clips = ["clean-1", "walkers-1", "bounce-1", "hd60-1"]

    static func score(_ clip: String, extraArguments: [String] = []) throws -> FlightClipScore {
        let folder = CommandLineRunner.repositoryRoot.appendingPathComponent("SampleClips")
        let outcome = try CommandLineRunner.run(["detect", folder.appendingPathComponent("\(clip).mp4").path] + extraArguments)
        try #require(outcome.status == 0, "detect failed: \(outcome.standardError)")
        // What the README's first command prints must be valid against the published schema.
        #expect(try DetectCommandTests.schema("trajectories.schema.json").violations(of: .parse(outcome.standardOutput)) == [])
        let report = try EvaluationDocuments.decodeReport(Data(outcome.standardOutput.utf8), name: clip)
        let truth = try EvaluationDocuments.decodeGroundTruth(
            Data(contentsOf: folder.appendingPathComponent("\(clip).truth.json")), name: clip)
        return try FlightScorer().score(report, against: truth, clip: clip)
    }

    @Test("every flight is found, nothing else is reported, and points are within 1.5 px on average", arguments: clips)
    func accuracy(clip: String) throws {
        let score = try Self.score(clip)
        #expect(score.counts.flights > 0)
        #expect(score.counts.foundFlights == score.counts.flights - score.counts.unreportableFlights,
                "missed: \(score.flights.filter { $0.status == .missed }.map(\.id))")
        #expect(score.counts.falseTrajectories == 0)
        let meanError = try #require(score.metrics.meanPointError)
        #expect(meanError <= 1.5)
    }

    @Test("pixel coordinates score the same as normalized ones")
    func pixelOutputScoresTheSame() throws {
        let normalized = try Self.score("bounce-1")
        let pixels = try Self.score("bounce-1", extraArguments: ["--coordinates", "pixels"])
        #expect(normalized.counts.foundFlights == pixels.counts.foundFlights)
        #expect(normalized.counts.trueTrajectories == pixels.counts.trueTrajectories)
        #expect(normalized.counts.matchedPoints == pixels.counts.matchedPoints)
        #expect(abs((normalized.metrics.meanPointError ?? 0) - (pixels.metrics.meanPointError ?? 0)) < 0.01)
    }
}
