import Foundation
import TrajectoryKit

/// Where a person saw the ball in one frame of a video.
public struct FrameLabel: Sendable, Hashable, Codable {
    /// 0-based index of the decoded frame in presentation order, as in a report's points.
    public var frame: Int
    /// The ball's centre in pixels, top-left origin; `nil` when the ball is not visible.
    @NullWhenAbsent public var position: PixelPoint?

    public init(frame: Int, position: PixelPoint?) {
        self.frame = frame
        self.position = position
    }

    public var isVisible: Bool { position != nil }
}

/// Per-frame ball labels in the CSV format of the TrackNet data sets:
///
/// ```
/// Frame,Visibility,X,Y
/// 0,0,0,0
/// 1,1,612.5,240
/// ```
///
/// - `Frame`: the 0-based index of the decoded frame, the same index a report's points carry.
/// - `Visibility`: 0 when the ball cannot be seen; 1 when it can (any positive integer counts as
///   visible, since TrackNet's first data set grades visibility 1–3).
/// - `X`, `Y`: the ball's centre in pixels of the video, top-left origin. They may be empty, or
///   anything numeric, when the ball is not visible.
///
/// Columns are found by their header names (any case, any order), so extra columns are ignored.
/// Line ends may be LF or CRLF, a UTF-8 byte-order mark and blank lines are skipped, and a field
/// may be wrapped in double quotes. Frames not listed are not scored.
public struct TrackNetLabels: Sendable, Hashable {
    /// One label per frame, in increasing frame order.
    public private(set) var labels: [FrameLabel]

    /// - Precondition: no two labels are of the same frame.
    public init(labels: [FrameLabel]) {
        precondition(Set(labels.map(\.frame)).count == labels.count, "one label per frame")
        self.labels = labels.sorted { $0.frame < $1.frame }
    }

    /// Parses a label file.
    /// - Parameter name: how to name the file in errors.
    /// - Throws: `EvaluationError.malformedLabels` naming the first line that cannot be read
    ///   and what is wrong with it.
    public init(csv: String, name: String = "labels") throws(EvaluationError) {
        var lines = csv.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { (number: $0.offset + 1, text: $0.element) }
            .filter { !$0.text.allSatisfy(\.isWhitespace) }
        guard !lines.isEmpty else {
            throw .malformedLabels(name: name, line: 1, problem: "the file is empty; expected a header Frame,Visibility,X,Y")
        }
        let header = lines.removeFirst()
        let columns = try LabelColumns(header: header.text.trimmingPrefix("\u{FEFF}"), line: header.number, name: name)

        var labels: [FrameLabel] = []
        var lineOfFrame: [Int: Int] = [:]
        for line in lines {
            let label = try columns.label(from: line.text, line: line.number, name: name)
            if let earlier = lineOfFrame.updateValue(line.number, forKey: label.frame) {
                throw .malformedLabels(name: name, line: line.number, problem: "frame \(label.frame) is already labelled on line \(earlier)")
            }
            labels.append(label)
        }
        self.init(labels: labels)
    }
}

/// Where the four columns sit in a label file, and how a row is read.
private struct LabelColumns {
    let frame: Int
    let visibility: Int
    let x: Int
    let y: Int

    init(header: Substring, line: Int, name: String) throws(EvaluationError) {
        let names = Self.fields(of: header).map { $0.lowercased() }
        func column(_ wanted: String) throws(EvaluationError) -> Int {
            guard let index = names.firstIndex(of: wanted.lowercased()) else {
                throw .malformedLabels(
                    name: name, line: line,
                    problem: "the header has no \(wanted) column; expected Frame,Visibility,X,Y, found \(header)")
            }
            return index
        }
        frame = try column("Frame")
        visibility = try column("Visibility")
        x = try column("X")
        y = try column("Y")
    }

    func label(from row: Substring, line: Int, name: String) throws(EvaluationError) -> FrameLabel {
        let fields = Self.fields(of: row)
        let needed = max(frame, visibility, x, y) + 1
        guard fields.count >= needed else {
            throw .malformedLabels(name: name, line: line, problem: "expected at least \(needed) fields, found \(fields.count)")
        }
        guard let frameIndex = Int(fields[frame]), frameIndex >= 0 else {
            throw .malformedLabels(name: name, line: line, problem: "Frame must be a whole number 0 or more, found \"\(fields[frame])\"")
        }
        guard let visibilityGrade = Int(fields[visibility]), visibilityGrade >= 0 else {
            throw .malformedLabels(name: name, line: line, problem: "Visibility must be 0 or 1, found \"\(fields[visibility])\"")
        }
        let xValue = try Self.coordinate(fields[x], column: "X", line: line, name: name)
        let yValue = try Self.coordinate(fields[y], column: "Y", line: line, name: name)
        guard visibilityGrade > 0 else { return FrameLabel(frame: frameIndex, position: nil) }
        guard let xValue, let yValue else {
            throw .malformedLabels(name: name, line: line, problem: "the ball is visible but X or Y is empty")
        }
        return FrameLabel(frame: frameIndex, position: PixelPoint(x: xValue, y: yValue))
    }

    /// A coordinate, `nil` when the field is empty.
    private static func coordinate(_ field: String, column: String, line: Int, name: String) throws(EvaluationError) -> Double? {
        if field.isEmpty { return nil }
        guard let value = Double(field), value.isFinite else {
            throw .malformedLabels(name: name, line: line, problem: "\(column) must be a number, found \"\(field)\"")
        }
        return value
    }

    /// The comma-separated fields of a row, trimmed, with surrounding double quotes removed.
    private static func fields(of row: Substring) -> [String] {
        row.split(separator: ",", omittingEmptySubsequences: false).map { field in
            var text = field.trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.first == "\"", text.last == "\"" {
                text = String(text.dropFirst().dropLast())
            }
            return text
        }
    }
}
