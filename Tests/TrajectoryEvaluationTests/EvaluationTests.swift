import Foundation
import Testing
import TrajectoryEvaluation
import TrajectoryKit

/// Several clips combined into scene rows and a total, and how the result is written out.
@Suite struct EvaluationTests {
    /// Three clips of two scenes:
    /// rally #1: two flights, both followed. rally #2: one flight, nothing reported.
    /// lob #1: one flight followed, and one trajectory on nothing.
    static func evaluation() throws -> FlightEvaluation {
        let scorer = FlightScorer()
        let first = Fixture.flight(id: 1)
        let second = Fixture.flight(id: 2, frames: 45..<60, origin: PixelPoint(x: 50, y: 200))
        let clips = [
            try scorer.score(
                Fixture.report([Fixture.track(following: first, frames: 10..<40), Fixture.track(following: second, frames: 45..<60)]),
                against: Fixture.truth([first, second], scene: "rally", seed: 1), clip: "rally-1.mp4"),
            try scorer.score(Fixture.report([]), against: Fixture.truth([first], scene: "rally", seed: 2), clip: "rally-2.mp4"),
            try scorer.score(
                Fixture.report([Fixture.track(following: first, frames: 10..<40), Fixture.track(at: PixelPoint(x: 600, y: 20), frames: 0..<10)]),
                against: Fixture.truth([first], scene: "lob", seed: 1), clip: "lob-1.mp4"),
        ]
        return FlightEvaluation(clips: clips, options: scorer.options)
    }

    @Test("scene rows and the total sum counts before computing rates (micro average)")
    func microAverage() throws {
        let evaluation = try Self.evaluation()

        #expect(evaluation.scenes.map(\.name) == ["rally", "lob"])
        #expect(evaluation.scenes.map(\.clips) == [2, 1])
        #expect(evaluation.scenes[0].counts.flights == 3)
        #expect(abs(evaluation.scenes[0].metrics.recall - 2.0 / 3.0) < 1e-12)
        #expect(evaluation.scenes[1].metrics.precision == 0.5)
        // Averaging the clips' rates instead would give recall 2/3 and precision 5/6.
        #expect(evaluation.total.counts.flights == 4)
        #expect(evaluation.total.counts.foundFlights == 3)
        #expect(evaluation.total.metrics.recall == 0.75)
        #expect(evaluation.total.metrics.precision == 0.75)
        #expect(evaluation.total.metrics.fragmentation == 1)
        #expect(evaluation.total.counts.falseTrajectories == 1)
    }

    @Test("the text table has one aligned row per clip, per scene and the total")
    func table() throws {
        let evaluation = try Self.evaluation()
        let lines = evaluation.table().split(separator: "\n")

        #expect(lines.count == 10)  // header, rule, 3 clips, rule, 2 scenes, rule, total
        #expect(Set(lines.map(\.count)).count == 1, "every line has the same width")
        #expect(lines[0].hasPrefix("clip / scene"))
        #expect(lines[2].hasPrefix("rally-1.mp4"))
        #expect(lines[7].hasPrefix("lob "))
        #expect(lines[9].hasPrefix("total"))
        #expect(lines[9].contains(" 0.750 "))
        #expect(evaluation.table(showingClips: false).split(separator: "\n").count == 6)
    }

    @Test("the problems name each missed flight and each false trajectory")
    func problems() throws {
        let problems = try Self.evaluation().problems
        #expect(problems.count == 2)
        #expect(problems[0] == "rally-2.mp4: missed flight 1, frames 10-39: 0 of 30 visible frames covered, by no trajectory")
        #expect(problems[1].hasPrefix("lob-1.mp4: false trajectory "))
        #expect(problems[1].hasSuffix("frames 0-9, 10 points"))
    }

    @Test("the JSON has stable keys, writes absent values as null and reads back unchanged")
    func json() throws {
        let evaluation = try Self.evaluation()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(evaluation)

        #expect(try JSONDecoder().decode(FlightEvaluation.self, from: data) == evaluation)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["options", "clips", "scenes", "total"])
        let total = try #require(object["total"] as? [String: Any])
        let metrics = try #require(total["metrics"] as? [String: Any])
        #expect(Set(metrics.keys) == ["recall", "precision", "f1", "coverage", "fragmentation", "meanPointError", "maxPointError"])

        let missedClip = try String(decoding: encoder.encode(evaluation.clips[1].metrics), as: UTF8.self)
        #expect(missedClip.contains(#""fragmentation":null"#))
        #expect(missedClip.contains(#""meanPointError":null"#))
    }

    @Test("labelled clips add up to a total, shown as a table with the tolerance")
    func pointEvaluation() throws {
        let scorer = try PointScorer()
        let labels = try TrackNetLabels(csv: PointScorerTests.labels)
        let clips = [
            try scorer.score(PointScorerTests.report(), against: labels, clip: "a.mp4"),
            try scorer.score(Fixture.report([]), against: labels, clip: "b.mp4"),
        ]
        let evaluation = PointEvaluation(clips: clips, tolerance: scorer.tolerance)

        #expect(evaluation.total.counts.truePositives == 3)
        #expect(evaluation.total.counts.falseNegatives == 7)
        #expect(evaluation.total.metrics.recall == 0.3)
        #expect(evaluation.total.metrics.precision == 0.5)
        let lines = evaluation.description.split(separator: "\n")
        #expect(lines[0] == "tolerance 4.00 px")
        #expect(lines.count == 7)  // tolerance, header, rule, 2 clips, rule, total
        #expect(Set(lines.dropFirst().map(\.count)).count == 1, "every table line has the same width")

        let data = try JSONEncoder().encode(evaluation)
        #expect(try JSONDecoder().decode(PointEvaluation.self, from: data) == evaluation)
    }
}
