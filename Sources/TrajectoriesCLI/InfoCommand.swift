import ArgumentParser
import TrajectoryVideo

/// `trajectories info`: what a video is, as JSON, without analysing it.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a video's size as displayed, frame rate, frame count, duration, codec and rotation as JSON.")

    @Argument(help: "A video file, a URL FFmpeg can read, or - for standard input.")
    var input: String

    func run() throws {
        try Diagnostics.reportingFailures {
            try OutputDestination(path: nil).writeDocument(JSONOutput.document(try VideoReader.describe(uri: input)))
        }
    }
}
