import ArgumentParser

/// `trajectories`: finds balls in flight in video and reports them as Vision does.
/// The root only holds the configuration; each subcommand is a small type of its own.
@main
struct TrajectoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectories",
        abstract: "Find balls in flight in video and report each flight as Vision's VNDetectTrajectoriesRequest does.",
        discussion: """
            Results go to standard output (or --output), diagnostics to standard error, so \
            `trajectories detect clip.mp4 | jq` always works. Exit status: 0 on success, 64 for a \
            usage error, 1 when the input cannot be read or the run fails.
            """,
        version: "0.1.0",
        subcommands: [DetectCommand.self, InfoCommand.self, SynthCommand.self, EvaluateCommand.self, ClipsCommand.self]
    )
}
