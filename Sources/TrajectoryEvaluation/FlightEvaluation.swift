/// The flight scores of several clips (say, every scene × seed), with a row per scene and a total.
///
/// Rows sum their clips' counts before computing rates (see `ScoreCounts`). Encode it with
/// `JSONEncoder` for machines; `description` is the table and the list of problems for people.
public struct FlightEvaluation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The options the clips were scored with.
    public var options: FlightScoringOptions
    public var clips: [FlightClipScore]
    /// One row per scene, in the order scenes first appear in `clips`.
    public var scenes: [ScoreSummary<FlightCounts>]
    public var total: ScoreSummary<FlightCounts>

    /// Combines clips scored with `options`.
    public init(clips: [FlightClipScore], options: FlightScoringOptions) {
        self.options = options
        self.clips = clips
        var sceneNames: [String] = []
        for clip in clips where !sceneNames.contains(clip.scene) {
            sceneNames.append(clip.scene)
        }
        scenes = sceneNames.map { scene in
            ScoreSummary(name: scene, summing: clips.filter { $0.scene == scene }.map(\.counts))
        }
        total = ScoreSummary(name: "total", summing: clips.map(\.counts))
    }

    /// An aligned table: one row per clip (if `showingClips`), one per scene, then the total.
    public func table(showingClips: Bool = true) -> String {
        var table = TextTable(
            nameHeader: showingClips ? "clip / scene" : "scene",
            numberHeaders: ["clips", "flights", "found", "recall", "trajs", "false", "precision", "F1", "frag", "coverage",
                            "mean px", "max px"])
        func append(_ name: String, clips: Int, _ counts: FlightCounts, _ metrics: FlightMetrics) {
            table.append([
                name, "\(clips)", "\(counts.flights)", "\(counts.foundFlights)", CellFormat.rate(metrics.recall),
                "\(counts.trajectories)", "\(counts.falseTrajectories)", CellFormat.rate(metrics.precision),
                CellFormat.rate(metrics.f1), CellFormat.ratio(metrics.fragmentation), CellFormat.rate(metrics.coverage),
                CellFormat.pixels(metrics.meanPointError), CellFormat.pixels(metrics.maxPointError),
            ])
        }
        if showingClips {
            for clip in clips {
                append(clip.clip, clips: 1, clip.counts, clip.metrics)
            }
            table.appendRule()
        }
        for scene in scenes {
            append(scene.name, clips: scene.clips, scene.counts, scene.metrics)
        }
        table.appendRule()
        append(total.name, clips: total.clips, total.counts, total.metrics)
        return table.rendered()
    }

    /// One line per missed flight and per false trajectory, saying where to look.
    public var problems: [String] {
        clips.flatMap { clip in
            clip.flights.filter { $0.status == .missed }.map { flight in
                "\(clip.clip): missed flight \(flight.id), frames \(Self.frames(flight.firstFrame, flight.lastFrame)): "
                    + "\(flight.coveredFrames) of \(flight.visibleFrames) visible frames covered, by "
                    + Self.trajectories(flight.trajectories.count)
            }
                + clip.trajectories.filter { !$0.isTrue }.map { trajectory in
                    let near = trajectory.duplicateOf.map { ", duplicate of \($0.uuidString.prefix(8)) on flight \(trajectory.flight ?? -1)" }
                        ?? trajectory.flight.map { ", \(trajectory.matchedPoints) near flight \($0)" } ?? ""
                    let moving = trajectory.concurrentDistractors.isEmpty
                        ? "" : " (moving then: \(trajectory.concurrentDistractors.joined(separator: ", ")))"
                    return "\(clip.clip): false trajectory \(trajectory.uuid.uuidString.prefix(8)), frames "
                        + "\(Self.frames(trajectory.firstFrame, trajectory.lastFrame)), \(trajectory.points) points\(near)\(moving)"
                }
        }
    }

    /// The table by scene with every clip, then the problems.
    public var description: String {
        ([table()] + (problems.isEmpty ? [] : ["", "Problems:"] + problems.map { "  " + $0 })).joined(separator: "\n")
    }

    private static func trajectories(_ count: Int) -> String {
        switch count {
        case 0: "no trajectory"
        case 1: "1 trajectory"
        default: "\(count) trajectories"
        }
    }

    private static func frames(_ first: Int?, _ last: Int?) -> String {
        guard let first, let last else { return "none" }
        return "\(first)-\(last)"
    }
}
