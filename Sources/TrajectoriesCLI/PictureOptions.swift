import ArgumentParser
import Foundation
import TrajectoryDrawing
import TrajectoryKit
import TrajectoryVideo

/// `detect --overlay` and `--snapshot`: pictures of the run beside its JSON.
struct PictureOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Also write the video with every trajectory drawn while it is live: detected points in red, the fit in green, the region of interest in blue (H.264, or MPEG-4 without x264).",
        valueName: "out.mp4"))
    var overlay: String?

    @Option(help: ArgumentHelp(
        "Also write a PNG of every trajectory over one frame (the middle of the longest flight), at the displayed size.",
        valueName: "out.png"))
    var snapshot: String?

    /// Whether any picture was asked for (then the run records a history to draw from).
    var isRequested: Bool { overlay != nil || snapshot != nil }

    /// Fails before any decoding when the pictures cannot be made: the input cannot be read a
    /// second time, or an output's folder is missing.
    func check(input: String) throws {
        guard isRequested else { return }
        if VideoReader.isReadOnce(input) {
            throw CommandFailure("--overlay and --snapshot read the video a second time to draw it, so they need a file or URL, not '\(input)'")
        }
        for (flag, path) in [("--overlay", overlay), ("--snapshot", snapshot)] where path == "-" {
            throw CommandFailure("\(flag) needs a file to write, not '-': standard output carries the results")
        }
        for path in [overlay, snapshot].compactMap({ $0 }) {
            _ = try OutputDestination(path: path)  // the same checks as --output
        }
    }

    /// Decodes `input` again and writes the pictures asked for, until the end or until
    /// `stopper` is told to stop; then warns what the pictures hold.
    func render(
        input: String, history: TrajectoryHistory, regionOfInterest: NormalizedRect, networkTimeout: Double,
        stopper: RunStopper
    ) throws {
        guard isRequested else { return }
        // The outcome's warnings are the input's again, which the first pass has reported.
        let outcome = try TrajectoryPictures.render(
            uri: input, history: history, regionOfInterest: regionOfInterest, overlayPath: overlay, snapshotPath: snapshot,
            networkTimeout: networkTimeout, stopper: stopper)
        guard outcome.stoppedEarly else { return }
        if let overlay {
            Diagnostics.warning(
                outcome.framesWritten == 0
                    ? "--overlay was not drawn after the stop"
                    : "--overlay was stopped early: '\(overlay)' holds the first \(outcome.framesWritten) frames")
        }
        if let snapshot, outcome.snapshotFrame == nil {
            Diagnostics.warning("--snapshot '\(snapshot)' was not drawn: the stop came before its frame")
        }
    }
}
