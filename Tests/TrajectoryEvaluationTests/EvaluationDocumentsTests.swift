import Foundation
import Testing
import TrajectoryEvaluation
import TrajectoryKit

@Suite struct EvaluationDocumentsTests {
    @Test("a report and a ground truth written as JSON read back unchanged")
    func roundTrip() throws {
        let flight = Fixture.flight()
        let report = Fixture.report([Fixture.track(following: flight, frames: 10..<40)])
        let truth = Fixture.truth([flight], distractors: [.init(kind: "walker", firstFrame: 0, lastFrame: 59)])

        #expect(try EvaluationDocuments.decodeReport(JSONEncoder().encode(report), name: "r.json") == report)
        #expect(try EvaluationDocuments.decodeGroundTruth(JSONEncoder().encode(truth), name: "t.json") == truth)
    }

    /// A JSON report broken in one way, and what the error must say.
    struct BrokenReport: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var json: String
        var problem: String
    }

    static let brokenReports = [
        BrokenReport(testDescription: "not JSON", json: "{\"schemaVersion\": 1, \"source\": ", problem: "not valid JSON"),
        BrokenReport(testDescription: "a point without x", json: validReport.replacingOccurrences(of: "\"x\":0.5,", with: ""),
                     problem: "missing key \"x\" at trajectories[0].points[0]"),
        BrokenReport(testDescription: "a frame that is text", json: validReport.replacingOccurrences(of: "\"frame\":3", with: "\"frame\":\"3\""),
                     problem: "expected Int at trajectories[0].points[0].frame"),
        BrokenReport(testDescription: "no trajectories key", json: validReport.replacingOccurrences(of: "\"trajectories\"", with: "\"paths\""),
                     problem: "missing key \"trajectories\" at the top level"),
    ]

    @Test("a malformed report is refused with an error naming the file and the place", arguments: brokenReports)
    func malformedReport(broken: BrokenReport) throws {
        // The fixture itself must be valid, or the cases below prove nothing.
        _ = try EvaluationDocuments.decodeReport(Data(Self.validReport.utf8), name: "valid.json")

        let error = #expect(throws: EvaluationError.self) {
            try EvaluationDocuments.decodeReport(Data(broken.json.utf8), name: "clip.json")
        }
        guard case .unreadableDocument(let name, let problem) = try #require(error) else {
            Issue.record("expected unreadableDocument, got \(String(describing: error))")
            return
        }
        #expect(name == "clip.json")
        #expect(problem.contains(broken.problem), "\(problem)")
    }

    @Test("a document of another schema version is named as such, not as a missing key")
    func otherVersion() {
        let json = #"{"schemaVersion": 2, "clips": []}"#
        #expect(throws: EvaluationError.unsupportedSchemaVersion(name: "new.json", found: 2, supported: 1)) {
            try EvaluationDocuments.decodeReport(Data(json.utf8), name: "new.json")
        }
        #expect(throws: EvaluationError.unsupportedSchemaVersion(name: "new.truth.json", found: 2, supported: 1)) {
            try EvaluationDocuments.decodeGroundTruth(Data(json.utf8), name: "new.truth.json")
        }
    }

    @Test("errors read as one line naming the document")
    func errorDescription() {
        let error = EvaluationError.malformedLabels(name: "labels.csv", line: 7, problem: "X must be a number, found \"a\"")
        #expect(error.description == "labels.csv, line 7: X must be a number, found \"a\"")
    }

    /// A minimal valid report of one trajectory with one point at frame 3.
    static let validReport = """
        {"schemaVersion":1,\
        "source":{"uri":"clip.mp4","width":640,"height":360,"frameRate":30,"frameCount":60,"duration":2,"rotation":0},\
        "request":{"trajectoryLength":10,"frameAnalysisSpacing":0,"objectMinimumNormalizedRadius":0,\
        "objectMaximumNormalizedRadius":1,"regionOfInterest":{"x":0,"y":0,"width":1,"height":1},"coordinates":"normalized"},\
        "trajectories":[{"uuid":"6F1E2A5C-1B7D-4C1E-9B1A-2D4C6E8F0A1B","timeRange":{"start":0.1,"duration":0},\
        "points":[{"frame":3,"time":0.1,"x":0.5,"y":0.5,"radius":0.01}],"detectedPoints":[{"x":0.5,"y":0.5}],\
        "projectedPoints":[{"x":0.5,"y":0.5}],"equationCoefficients":{"a":0,"b":0,"c":0.5},"confidence":1,\
        "movingAverageRadius":0.01}],"warnings":[]}
        """
}
