/// Why an evaluation could not be made. Each case names the document (file name or any label the
/// caller chose) and says what is wrong in words a user can act on; `description` is one line.
public enum EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is not the JSON it should be: broken syntax, a missing key, a wrong type.
    case unreadableDocument(name: String, problem: String)
    /// The document is of a schema version this scorer does not know.
    case unsupportedSchemaVersion(name: String, found: Int, supported: Int)
    /// The document parses but cannot be scored as it is (a non-positive frame size, a flight
    /// whose frames go backwards, two flights with one id).
    case invalidDocument(name: String, problem: String)
    /// The report and the ground truth describe frames of different sizes: they are not of the
    /// same clip, or the clip was rescaled in between.
    case frameSizeMismatch(report: String, reportWidth: Int, reportHeight: Int, truthWidth: Int, truthHeight: Int)
    /// A row of a TrackNet-style label file that cannot be read; `line` is 1-based, the header is line 1.
    case malformedLabels(name: String, line: Int, problem: String)
    /// A scoring option outside its allowed range.
    case invalidOption(name: String, problem: String)

    public var description: String {
        switch self {
        case .unreadableDocument(let name, let problem):
            "\(name): not a readable document: \(problem)"
        case .unsupportedSchemaVersion(let name, let found, let supported):
            "\(name): schemaVersion \(found) is not supported (this scorer reads version \(supported))"
        case .invalidDocument(let name, let problem):
            "\(name): \(problem)"
        case .frameSizeMismatch(let report, let reportWidth, let reportHeight, let truthWidth, let truthHeight):
            "\(report): frames are \(reportWidth)x\(reportHeight) but the ground truth's are "
                + "\(truthWidth)x\(truthHeight); score a report against the truth of the same clip"
        case .malformedLabels(let name, let line, let problem):
            "\(name), line \(line): \(problem)"
        case .invalidOption(let name, let problem):
            "option \(name): \(problem)"
        }
    }
}
