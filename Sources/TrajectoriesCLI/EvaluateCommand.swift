import ArgumentParser
import Foundation
import TrajectoryEvaluation
import TrajectoryKit

/// `trajectories evaluate`: how good a detect result is, against generated ground truth or
/// against per-frame labels made by hand.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score detect results against ground truth (from synth) or TrackNet-style per-frame labels.",
        discussion: """
            Give results and truths in the same order:
              trajectories evaluate a.json b.json --truth a.truth.json --truth b.truth.json
            scores flights: precision, recall, F1, point error in pixels, fragmentation (uuids per \
            flight) and false trajectories, per scene and in total. With --labels (a CSV with the \
            header Frame,Visibility,X,Y in pixels) it scores points within --tolerance pixels.
            """)

    @Argument(help: "Result files written by `trajectories detect` (JSON documents).")
    var results: [String]

    @Option(name: .customLong("truth"), help: "A ground-truth file (<clip>.truth.json) for each result, in the same order.")
    var truths: [String] = []

    @Option(name: .customLong("labels"), help: "A TrackNet-style label CSV (Frame,Visibility,X,Y) for each result, in the same order.")
    var labels: [String] = []

    @Option(help: "With --labels: how far, in pixels, a point may be from the label and still count.")
    var tolerance = 4.0

    @Option(help: "table: aligned text for people; json: the full result, with every flight and trajectory.")
    var format: EvaluationFormat = .table

    enum EvaluationFormat: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    func validate() throws {
        guard !results.isEmpty else { throw ValidationError("give at least one result file.") }
        guard truths.isEmpty != labels.isEmpty else {
            throw ValidationError("give either --truth or --labels for every result, not both and not neither.")
        }
        let references = truths.isEmpty ? labels.count : truths.count
        guard references == results.count else {
            throw ValidationError(
                "\(results.count) result file(s) but \(references) \(truths.isEmpty ? "--labels" : "--truth") file(s): give one for each, in the same order.")
        }
        guard tolerance.isFinite, tolerance > 0 else {
            throw ValidationError("--tolerance must be a positive number of pixels (got \(tolerance)).")
        }
    }

    func run() throws {
        try Diagnostics.reportingFailures {
            let output = OutputDestination.standardOutput
            if truths.isEmpty {
                let scorer = try PointScorer(tolerance: tolerance)
                let clips = try zip(results, labels).map { result, labelFile in
                    let report = try Self.read(result, as: EvaluationDocuments.decodeReport)
                    let labelled = try Self.read(labelFile, as: EvaluationDocuments.decodeTrackNetLabels)
                    if let last = labelled.labels.map(\.frame).max(), last >= report.source.frameCount {
                        Diagnostics.warning(
                            "'\(labelFile)' labels frames up to \(last), but '\(result)' covers \(report.source.frameCount) frames "
                                + "(0–\(report.source.frameCount - 1)); the frames beyond count as missed: are both of the same video?")
                    }
                    return try scorer.score(report, against: labelled, clip: result)
                }
                let evaluation = PointEvaluation(clips: clips, tolerance: tolerance)
                try output.writeDocument(format == .json ? JSONOutput.document(evaluation) : Data((evaluation.description + "\n").utf8))
            } else {
                let scorer = FlightScorer()
                let clips = try zip(results, truths).map { result, truthFile in
                    let report = try Self.read(result, as: EvaluationDocuments.decodeReport)
                    let truth = try Self.read(truthFile, as: EvaluationDocuments.decodeGroundTruth)
                    // A size that differs is refused by the scorer; a length that differs is scored, with a warning.
                    if report.source.frameCount != truth.frameCount {
                        Diagnostics.warning(
                            "'\(result)' covers \(report.source.frameCount) frames, but '\(truthFile)' describes a clip of "
                                + "\(truth.frameCount): are both of the same video?")
                    }
                    return try scorer.score(report, against: truth, clip: result)
                }
                let evaluation = FlightEvaluation(clips: clips, options: .standard)
                try output.writeDocument(format == .json ? JSONOutput.document(evaluation) : Data((evaluation.description + "\n").utf8))
            }
        }
    }

    /// Reads and decodes one input file; errors name the file.
    private static func read<Value>(
        _ path: String, as decode: (Data, String) throws(EvaluationError) -> Value
    ) throws -> Value {
        try decode(Diagnostics.readFile(path, named: "'\(path)'"), path)
    }
}
