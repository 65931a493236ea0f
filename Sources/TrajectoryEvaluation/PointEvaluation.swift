/// The per-frame scores of several labelled clips and their total (counts summed, then rates).
/// Encode it with `JSONEncoder` for machines; `description` is a table for people.
public struct PointEvaluation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The pixel tolerance the clips were scored with.
    public var tolerance: Double
    public var clips: [PointClipScore]
    public var total: ScoreSummary<PointCounts>

    /// Combines clips scored with a tolerance of `tolerance` pixels.
    public init(clips: [PointClipScore], tolerance: Double) {
        self.tolerance = tolerance
        self.clips = clips
        total = ScoreSummary(name: "total", summing: clips.map(\.counts))
    }

    /// An aligned table: one row per clip, then the total.
    public func table() -> String {
        var table = TextTable(
            nameHeader: "clip",
            numberHeaders: ["frames", "visible", "TP", "FP", "FN", "TN", "precision", "recall", "F1", "mean px", "max px"])
        func append(_ name: String, _ counts: PointCounts, _ metrics: PointMetrics) {
            table.append([
                name, "\(counts.labelledFrames)", "\(counts.visibleLabels)", "\(counts.truePositives)",
                "\(counts.falsePositives)", "\(counts.falseNegatives)", "\(counts.trueNegatives)",
                CellFormat.rate(metrics.precision), CellFormat.rate(metrics.recall), CellFormat.rate(metrics.f1),
                CellFormat.pixels(metrics.meanError), CellFormat.pixels(metrics.maxError),
            ])
        }
        for clip in clips {
            append(clip.clip, clip.counts, clip.metrics)
        }
        table.appendRule()
        append(total.name, total.counts, total.metrics)
        return table.rendered()
    }

    public var description: String {
        "tolerance \(CellFormat.pixels(tolerance)) px\n" + table()
    }
}
