import ArgumentParser
import Foundation
import TrajectoryKit
import TrajectoryVideo

/// `trajectories clips`: one video file per trajectory of a detect result.
struct ClipsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clips",
        abstract: "Cut one clip per trajectory of a detect result, named by its uuid.",
        discussion: """
            Each clip spans its trajectory's time range widened by --margin on both sides (within \
            the video). It is stream-copied when a keyframe lies at most 1 s before its start \
            (it may then begin up to that much early), and re-encoded otherwise. Clips hold the \
            video stream only; their timestamps start at 0 and the tag trajectories_source_start \
            gives the source time of their first frame. A line per clip is printed. A result \
            without trajectories writes nothing, says so on standard error and exits 0.
            """)

    @Argument(help: "The video the result was made from.")
    var input: String

    @Option(help: ArgumentHelp("The JSON document `trajectories detect` wrote for the input.", valueName: "R.json"))
    var result: String

    @Option(help: ArgumentHelp("The folder to write <uuid>.mp4 files to (created when missing).", valueName: "DIR"))
    var out: String

    @Option(help: "Seconds added before and after each trajectory.")
    var margin = 0.5

    func validate() throws {
        guard margin.isFinite, margin >= 0 else {
            throw ValidationError("--margin must be a number of seconds, 0 or more (got \(margin)).")
        }
    }

    func run() throws {
        try Diagnostics.reportingFailures {
            if VideoReader.isReadOnce(input) {
                throw CommandFailure("clips reads the video once per clip, so it needs a file or URL, not '\(input)'")
            }
            let report = try readResult()
            guard !report.trajectories.isEmpty else {
                Diagnostics.warning("'\(result)' has no trajectories; no clips written")
                return
            }
            // Where the stream's timestamps go back, detect set the times after forward: they are
            // not the file's, but a read from the start gives them again.
            let timesSetForward = report.warnings.contains { $0.hasPrefix(VideoReader.timestampWentBackWarning) }
            let info = try VideoReader.describe(uri: input)
            try checkMatch(report.source, info, comparingDurations: !timesSetForward)
            try makeFolder()
            // A stream that states no duration, or whose times were set forward past the one it
            // states, has the one detect measured from its frames.
            let duration = timesSetForward || info.duration <= 0 ? report.source.duration : info.duration
            let pieces = report.trajectories.map { trajectory in
                let end = trajectory.timeRange.end + margin
                return VideoClipper.Piece(
                    path: URL(fileURLWithPath: out).appendingPathComponent("\(trajectory.uuid.uuidString.lowercased()).mp4").path,
                    start: max(0, trajectory.timeRange.start - margin), end: duration > 0 ? min(duration, end) : end)
            }
            // Ctrl-C keeps the clips already whole and removes the one being written.
            let stopper = RunStopper()
            let interrupts = InterruptHandler(stopping: stopper)
            let clips = try VideoClipper.cut(uri: input, pieces: pieces, readingFromStart: timesSetForward, stopper: stopper)
            // Said once the clips are cut, so that a failure is its error line alone.
            if timesSetForward {
                Diagnostics.note(
                    "'\(result)' holds times set forward where the timestamps of '\(input)' go back: every clip was "
                        + "re-encoded from a read from its start")
            }
            // Where each clip really starts: a stream copy starts at the keyframe before the piece.
            for clip in clips {
                guard let piece = pieces.first(where: { $0.path == clip.path }) else { continue }
                print(String(
                    format: "%@\t%.3f…%.3f s\t%d frames\t%@", clip.path, clip.sourceStart, piece.end, clip.frameCount,
                    clip.method.rawValue))
            }
            if let signalNumber = interrupts.receivedSignal {
                throw InterruptHandler.exit(stoppedBy: signalNumber, detail: ": \(clips.count) of \(pieces.count) clips written")
            }
        }
    }

    private func readResult() throws -> TrajectoryReport {
        let data = try Diagnostics.readFile(result, named: "result file '\(result)'")
        do {
            return try JSONDecoder().decode(TrajectoryReport.self, from: data)
        } catch {
            if Self.isFrameLines(data) {
                throw CommandFailure("'\(result)' holds detect's --format jsonl lines; clips needs the JSON document of its default --format json")
            }
            throw CommandFailure("'\(result)' is not a `trajectories detect` JSON document")
        }
    }

    /// Whether `data` starts with a line of `detect --format jsonl`: an object with a frame
    /// number and observations.
    private static func isFrameLines(_ data: Data) -> Bool {
        let firstLine = data.prefix { $0 != UInt8(ascii: "\n") }
        guard let object = try? JSONSerialization.jsonObject(with: firstLine) as? [String: Any] else { return false }
        return object["frame"] is NSNumber && object["observations"] is [Any]
    }

    /// The result must describe this video: same displayed size, about the same duration, as
    /// far as the video states them (a stream FFmpeg could not decode at its start states no
    /// size; detect took its frames'). Durations are not compared when detect set times
    /// forward: its duration is then the frames' span, not the stream's.
    private func checkMatch(_ source: TrajectoryReport.SourceDescription, _ info: VideoInfo, comparingDurations: Bool) throws {
        let frame = info.frameRate > 0 ? 1 / info.frameRate : 0.1
        let sizeIsStated = info.width > 0 && info.height > 0
        let sizeDiffers = sizeIsStated && (source.width != info.width || source.height != info.height)
        let durationDiffers = comparingDurations && source.duration > 0 && info.duration > 0
            && abs(source.duration - info.duration) > max(0.5, 2 * frame)
        if sizeDiffers || durationDiffers {
            throw CommandFailure(String(
                format: "'%@' was made from a %d×%d video of %.2f s ('%@'), but '%@' is %d×%d and %.2f s long",
                result, source.width, source.height, source.duration, source.uri, input, info.width, info.height, info.duration))
        }
    }

    private func makeFolder() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure("cannot write clips to '\(out)': it is a file") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create folder '\(out)': \(error.localizedDescription)")
        }
    }
}
