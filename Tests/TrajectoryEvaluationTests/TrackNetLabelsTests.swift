import Testing
import TrajectoryEvaluation
import TrajectoryKit

@Suite struct TrackNetLabelsTests {
    @Test("labels read from CRLF lines with a byte-order mark, extra and reordered columns, quotes and blank lines")
    func tolerantParsing() throws {
        let csv = "\u{FEFF}Y, frame ,Extra,X,Visibility\r\n"
            + "0,0,note,0,0\r\n"
            + "\r\n"
            + "240.5,1,,612,1\r\n"
            + "\"100\",2,x,\"50.25\",1\r\n"
            + ",3,,,0\r\n"
        let labels = try TrackNetLabels(csv: csv, name: "labels.csv").labels

        #expect(labels == [
            FrameLabel(frame: 0, position: nil),
            FrameLabel(frame: 1, position: PixelPoint(x: 612, y: 240.5)),
            FrameLabel(frame: 2, position: PixelPoint(x: 50.25, y: 100)),
            FrameLabel(frame: 3, position: nil),
        ])
    }

    @Test("labels come out in frame order whatever order the file lists them in")
    func sortsByFrame() throws {
        let labels = try TrackNetLabels(csv: "Frame,Visibility,X,Y\n5,0,,\n2,1,3,4\n")
        #expect(labels.labels.map(\.frame) == [2, 5])
    }

    /// A label file broken in one way, the line the error must name and what it must say.
    struct BrokenLabels: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var csv: String
        var line: Int
        var problem: String
    }

    static let brokenFiles = [
        BrokenLabels(testDescription: "empty file", csv: "\n\n", line: 1, problem: "the file is empty"),
        BrokenLabels(testDescription: "no Y column", csv: "Frame,Visibility,X\n0,1,2\n", line: 1, problem: "no Y column"),
        BrokenLabels(testDescription: "frame not a number", csv: "Frame,Visibility,X,Y\n0,1,2,3\nten,1,2,3\n", line: 3,
                     problem: "Frame must be a whole number 0 or more, found \"ten\""),
        BrokenLabels(testDescription: "negative frame", csv: "Frame,Visibility,X,Y\n-1,1,2,3\n", line: 2, problem: "Frame must be"),
        BrokenLabels(testDescription: "visibility not a number", csv: "Frame,Visibility,X,Y\n0,yes,2,3\n", line: 2,
                     problem: "Visibility must be 0 or 1, found \"yes\""),
        BrokenLabels(testDescription: "visible without a position", csv: "Frame,Visibility,X,Y\r\n0,1,,\r\n", line: 2,
                     problem: "visible but X or Y is empty"),
        BrokenLabels(testDescription: "X not a number", csv: "Frame,Visibility,X,Y\n0,1,2,3\n\n1,1,abc,3\n", line: 4,
                     problem: "X must be a number, found \"abc\""),
        BrokenLabels(testDescription: "too few fields", csv: "Frame,Visibility,X,Y\n0,1,2\n", line: 2,
                     problem: "expected at least 4 fields, found 3"),
        BrokenLabels(testDescription: "a frame labelled twice", csv: "Frame,Visibility,X,Y\n4,1,2,3\n5,0,0,0\n4,0,0,0\n", line: 4,
                     problem: "frame 4 is already labelled on line 2"),
    ]

    @Test("a malformed label file is refused with an error naming the line and the problem", arguments: brokenFiles)
    func malformed(broken: BrokenLabels) {
        let error = #expect(throws: EvaluationError.self) {
            try TrackNetLabels(csv: broken.csv, name: "labels.csv")
        }
        guard case .malformedLabels(let name, let line, let problem) = error else {
            Issue.record("expected malformedLabels, got \(String(describing: error))")
            return
        }
        #expect(name == "labels.csv")
        #expect(line == broken.line)
        #expect(problem.contains(broken.problem), "\(problem)")
    }
}
