import Foundation
import TrajectoryKit

/// Reads the documents an evaluation compares, turning every decoding failure into an
/// `EvaluationError` that names the document and the place in it that is wrong.
public enum EvaluationDocuments {
    /// Decodes a `trajectories detect` JSON document.
    /// - Parameter name: how to name the document in errors, usually its file name.
    public static func decodeReport(_ data: Data, name: String) throws(EvaluationError) -> TrajectoryReport {
        try decode(TrajectoryReport.self, from: data, name: name, supportedVersion: TrajectoryReport.currentSchemaVersion)
    }

    /// Decodes a `<clip>.truth.json` ground-truth document.
    /// - Parameter name: how to name the document in errors, usually its file name.
    public static func decodeGroundTruth(_ data: Data, name: String) throws(EvaluationError) -> GroundTruth {
        try decode(GroundTruth.self, from: data, name: name, supportedVersion: GroundTruth.currentSchemaVersion)
    }

    /// Reads a TrackNet-style label file (UTF-8 CSV); see `TrackNetLabels.init(csv:name:)`.
    public static func decodeTrackNetLabels(_ data: Data, name: String) throws(EvaluationError) -> TrackNetLabels {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformedLabels(name: name, line: 1, problem: "the file is not UTF-8 text")
        }
        return try TrackNetLabels(csv: text, name: name)
    }

    /// Just the version, read first so that a document of another version is reported as such
    /// rather than as whichever key that version renamed.
    private struct VersionProbe: Decodable {
        var schemaVersion: Int
    }

    private static func decode<Document: Decodable>(
        _ type: Document.Type, from data: Data, name: String, supportedVersion: Int
    ) throws(EvaluationError) -> Document {
        let decoder = JSONDecoder()
        do {
            let version = try decoder.decode(VersionProbe.self, from: data).schemaVersion
            guard version == supportedVersion else {
                throw EvaluationError.unsupportedSchemaVersion(name: name, found: version, supported: supportedVersion)
            }
            return try decoder.decode(Document.self, from: data)
        } catch let error as EvaluationError {
            throw error
        } catch let error as DecodingError {
            throw .unreadableDocument(name: name, problem: explain(error))
        } catch {
            throw .unreadableDocument(name: name, problem: "\(error)")
        }
    }

    /// One sentence saying what is wrong and where, e.g.
    /// `missing key "x" at trajectories[0].points[3]`.
    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            "expected \(typeName(type)) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            "null where \(typeName(type)) is expected at \(path(context.codingPath))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "not valid JSON (\(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription))"
        case .dataCorrupted(let context):
            "invalid value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            "\(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// `Double` rather than `Swift.Double`, `a list` rather than `Array<Any>`.
    private static func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "a list" }
        if name.hasPrefix("Dictionary") { return "an object" }
        return name
    }
}
