import ArgumentParser
import Foundation
import TrajectoryKit

/// The flags that map onto `DetectTrajectoriesRequest`'s settings.
struct RequestOptions: ParsableArguments {
    @Option(name: .customLong("length"), help: "Points a trajectory needs before it is reported (Vision's trajectoryLength, 5 to 1000).")
    var trajectoryLength = 10

    @Option(
        name: .customLong("spacing"),
        help: "Seconds: after an analysed frame, frames within this time are skipped (Vision's frameAnalysisSpacing; 0 analyses every frame). Default: 0, but slow motion (90 frames a second or more) is analysed at about 30 frames a second.")
    var frameAnalysisSpacing: Double?

    @Option(name: .customLong("min-radius"), help: "Smallest object radius to report, as a fraction of the frame width.")
    var minimumRadius = 0.0

    @Option(name: .customLong("max-radius"), help: "Largest object radius to report, as a fraction of the frame width.")
    var maximumRadius = 1.0

    @Option(
        name: .customLong("roi"),
        help: ArgumentHelp(
            "Region of interest: x,y,width,height, normalized, origin at the bottom left (default: the whole frame).",
            valueName: "x,y,w,h"),
        transform: RegionArgument.parse)
    var regionOfInterest = NormalizedRect.full

    @Option(
        name: .customLong("target-frame-time"),
        help: "Seconds per frame the analysis should stay under; frames are then analysed at a lower resolution while they take longer (Vision's targetFrameTime).")
    var targetFrameTime: Double?

    @Option(
        name: .customLong("analysis-long-side"),
        help: "Pixels: frames are analysed shrunk 2 or 4 times while their long side stays at least this long (default 800: 1080p at 960x540, 720p at full size).")
    var minimumAnalysisLongSide = DetectTrajectoriesRequest.defaultMinimumAnalysisLongSide

    @Flag(
        name: .customLong("no-helper-thread"),
        help: "Analyse every frame on one thread: no helper thread measures moving regions beside it on busy frames. The results are the same; for many runs side by side.")
    var withoutHelperThread = false

    func validate() throws {
        let lengths = TrajectoryTracker.Configuration.allowedTrajectoryLengths
        guard trajectoryLength >= lengths.lowerBound else {
            throw ValidationError("--length must be at least \(lengths.lowerBound) (got \(trajectoryLength)).")
        }
        guard trajectoryLength <= lengths.upperBound else {
            throw ValidationError("--length must be at most \(lengths.upperBound) (got \(trajectoryLength)).")
        }
        if let frameAnalysisSpacing, !(frameAnalysisSpacing.isFinite && frameAnalysisSpacing >= 0) {
            throw ValidationError("--spacing must be a number of seconds, 0 or more (got \(frameAnalysisSpacing)).")
        }
        for (flag, value) in [("--min-radius", minimumRadius), ("--max-radius", maximumRadius)] {
            guard value.isFinite, (0...1).contains(value) else {
                throw ValidationError("\(flag) must be between 0 and 1, a fraction of the frame width (got \(value)).")
            }
        }
        guard maximumRadius > 0 else {
            throw ValidationError("--max-radius must be above 0: no object could be reported (got 0.0).")
        }
        if let targetFrameTime, !(targetFrameTime.isFinite && targetFrameTime > 0) {
            throw ValidationError("--target-frame-time must be a positive number of seconds (got \(targetFrameTime)).")
        }
        guard minimumAnalysisLongSide >= 1 else {
            throw ValidationError("--analysis-long-side must be at least 1 pixel (got \(minimumAnalysisLongSide)).")
        }
        guard minimumRadius <= maximumRadius else {
            throw ValidationError("--min-radius (\(minimumRadius)) must not exceed --max-radius (\(maximumRadius)).")
        }
    }

    /// A request configured from these flags.
    func makeRequest() throws -> DetectTrajectoriesRequest {
        let request = try DetectTrajectoriesRequest(
            frameAnalysisSpacing: frameAnalysisSpacing ?? 0, trajectoryLength: trajectoryLength)
        request.objectMinimumNormalizedRadius = minimumRadius
        request.objectMaximumNormalizedRadius = maximumRadius
        request.regionOfInterest = regionOfInterest
        request.targetFrameTime = targetFrameTime
        request.minimumAnalysisLongSide = minimumAnalysisLongSide
        request.usesHelperThread = !withoutHelperThread
        return request
    }
}

extension RequestOptions {
    /// Whether a run suits the request to a slow-motion video (``SlowMotion``): unless given
    /// `--spacing`.
    var suitsSlowMotion: Bool { frameAnalysisSpacing == nil }

    /// The note saying that a video of `frameRate` frames a second is analysed as slow motion,
    /// at the `spacing` the run gave the request, for standard error once a frame has been
    /// analysed (an input that then fails to give one gets its error line alone); nil when it
    /// is analysed as asked. The run decided the spacing (``SlowMotion``); the note only tells it.
    func slowMotionNote(spacing: Double, frameRate: Double, input: String) -> String? {
        guard suitsSlowMotion, spacing > 0 else { return nil }
        let step = SlowMotion.frameStep(forFrameRate: frameRate)
        return (
            "'\(input)' has \(frameRate.formatted(.number.precision(.fractionLength(0...2)))) frames a second: analysing it "
                + "as slow motion, one frame in \(step), about \(Int(SlowMotion.analysedFrameRate)) a second "
                + "(--spacing \(spacing.formatted(.number.precision(.fractionLength(0...6))))); --spacing 0 analyses every frame")
    }

    /// The settings as the report records them, with the spacing `request` was given.
    func description(coordinates: CoordinateSpace, spacing: Double) -> TrajectoryReport.RequestDescription {
        TrajectoryReport.RequestDescription(
            trajectoryLength: trajectoryLength, frameAnalysisSpacing: spacing,
            objectMinimumNormalizedRadius: minimumRadius, objectMaximumNormalizedRadius: maximumRadius,
            regionOfInterest: regionOfInterest, coordinates: coordinates)
    }
}

/// `--roi x,y,width,height`: four numbers, normalized, bottom-left origin, inside the frame.
enum RegionArgument {
    static func parse(_ argument: String) throws -> NormalizedRect {
        let numbers = argument.split(separator: ",", omittingEmptySubsequences: false)
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
            throw ValidationError("--roi needs four numbers x,y,width,height, e.g. 0,0,0.5,1 (got '\(argument)').")
        }
        let rect = NormalizedRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        guard rect.isValidRegionOfInterest else {
            throw ValidationError(
                "--roi must have a positive width and height and lie inside 0,0,1,1 (got '\(argument)').")
        }
        return rect
    }
}
/// How the results are written.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One JSON document when the video has been read.
    case json
    /// One line per analysed frame with observations, flushed as it is produced.
    case jsonl
}

extension CoordinateSpace: ExpressibleByArgument {}
