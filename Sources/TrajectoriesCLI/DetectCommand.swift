import ArgumentParser
import TrajectoryDrawing
import TrajectoryKit
import TrajectoryVideo

/// `trajectories detect`: the ball flights in one video, as JSON.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the balls in flight in a video and print each flight as JSON.",
        discussion: """
            Output follows schemaVersion 1 (Schemas/trajectories.schema.json): a document with the \
            source, the request and every trajectory, or with --format jsonl one line per analysed \
            frame that has observations, written as soon as it is known.
            """)

    @Argument(help: "A video file, a URL FFmpeg can read, or - for standard input.")
    var input: String

    @OptionGroup var requestOptions: RequestOptions

    @OptionGroup var limitOptions: LimitOptions

    @Option(help: "json: one document when the video has been read; jsonl: a line per analysed frame with observations.")
    var format: OutputFormat = .json

    @Option(help: "normalized: Vision's coordinates, origin at the bottom left, radius ÷ width; pixels: origin at the top left.")
    var coordinates: CoordinateSpace = .normalized

    @Option(name: [.short, .long], help: "Write the results to this file instead of standard output.")
    var output: String?

    @OptionGroup(title: "Pictures") var pictures: PictureOptions

    @Flag(
        name: .customLong("skip-loop-filter"),
        help: "Decode without the codec's deblocking filter: H.264 decodes about a quarter faster, the results are slightly less accurate.")
    var skipsLoopFilter = false

    @Flag(
        name: .customLong("one-decoder"),
        help: "Decode with one decoder. By default a local H.264 or HEVC file larger than the analysis size, or of which one frame in 4 or fewer is analysed (slow motion), is decoded by two, side by side, each taking every other stretch between IDR keyframes, and any other gets the second decoder once the analysis is seen waiting for decoding: faster on two cores or more, with the same results, for up to about 160 MB more memory.")
    var usesOneDecoder = false

    @Flag(help: "Also print FFmpeg's own messages on standard error.")
    var verbose = false

    func run() throws {
        try Diagnostics.reportingFailures {
            if verbose { FFmpegLog.echoLevel = .warning }
            var destination = try OutputDestination(path: output)
            try pictures.check(input: input)
            try FileClash.check(
                input: input,
                outputs: [("--output", output), ("--overlay", pictures.overlay), ("--snapshot", pictures.snapshot)]
                    .compactMap { flag, path in path.map { (flag, $0) } })
            let request = try requestOptions.makeRequest()
            request.limits = limitOptions.resourceLimits
            var history = TrajectoryHistory()
            let stopper = RunStopper()
            let interrupts = InterruptHandler(stopping: stopper)
            // The results first: a picture that cannot be drawn must not lose them.
            do {
                switch format {
                case .json:
                    let report = try detectDocument(request: request, stopper: stopper, history: &history)
                    try destination.writeDocument(JSONOutput.document(report))
                    report.warnings.forEach(Diagnostics.warning)
                case .jsonl:
                    let summary = try detectLines(request: request, stopper: stopper, into: &destination, history: &history)
                    try destination.finishLines()
                    summary.warnings.forEach(Diagnostics.warning)
                }
            } catch let error as VideoError where error.kind == .stoppedBeforeOpening {
                // Ctrl-C while FFmpeg still waited for the input to show what it is, or before
                // the first frame of a video that states no size: no results, not even the
                // video's size, so no JSON; the signal's exit status all the same.
                guard let signalNumber = interrupts.receivedSignal else { throw error }
                let moment = error.isStopBeforeFirstFrame ? "before any frame of '\(input)' was decoded" : "before '\(input)' was open"
                throw InterruptHandler.exit(stoppedBy: signalNumber, detail: " \(moment): nothing was analysed")
            }
            if let signalNumber = interrupts.receivedSignal {
                // The results so far are out; the pictures would read the whole video again.
                if pictures.isRequested { Diagnostics.warning("--overlay and --snapshot were not drawn after the stop") }
                throw InterruptHandler.exit(stoppedBy: signalNumber)
            }
            // Ctrl-C while the pictures are drawn ends the drawing; the results are out already.
            try pictures.render(
                input: input, history: history, regionOfInterest: requestOptions.regionOfInterest,
                networkTimeout: limitOptions.networkTimeout, stopper: stopper)
            if let signalNumber = interrupts.receivedSignal { throw InterruptHandler.exit(stoppedBy: signalNumber) }
        }
    }

    /// The whole run as one report; records `history` when pictures are asked for.
    private func detectDocument(
        request: DetectTrajectoriesRequest, stopper: RunStopper, history: inout TrajectoryHistory
    ) throws -> TrajectoryReport {
        var collector = TrajectoryCollector()
        let summary = try analyse(request, stopper: stopper, history: &history) { frame in
            collector.add(frame.observations)
        }
        let formatter = ReportFormatter(coordinates: coordinates, frameWidth: summary.info.width, frameHeight: summary.info.height)
        return TrajectoryReport(
            source: TrajectoryReport.SourceDescription(
                uri: input, width: summary.info.width, height: summary.info.height,
                frameRate: summary.info.frameRate, frameCount: summary.framesDecoded,
                duration: summary.duration, rotation: summary.info.rotation),
            request: requestOptions.description(coordinates: coordinates, spacing: request.frameAnalysisSpacing),
            trajectories: collector.trajectories(formattedBy: formatter),
            warnings: summary.warnings)
    }

    /// The run as JSON Lines, one written per analysed frame with observations.
    private func detectLines(
        request: DetectTrajectoriesRequest, stopper: RunStopper, into destination: inout OutputDestination,
        history: inout TrajectoryHistory
    ) throws -> VideoTrajectoryDetection.Summary {
        var builder: FrameReportBuilder?
        return try analyse(request, stopper: stopper, history: &history) { frame in
            guard !frame.observations.isEmpty else { return }
            if builder == nil {
                builder = FrameReportBuilder(formatter: ReportFormatter(
                    coordinates: coordinates, frameWidth: frame.width, frameHeight: frame.height))
            }
            if let line = builder?.report(frame: frame.stamp, observations: frame.observations) {
                try destination.writeLine(JSONOutput.line(line))
            }
        }
    }

    /// Runs `request` over the input with the command's settings, suited to a slow-motion rate
    /// when `--spacing` was not given (the note saying so waits for the first analysed frame,
    /// so that an input that gives none fails in its error line alone). Records `history` when
    /// pictures are asked for, then hands each analysed frame to `onAnalysedFrame`.
    private func analyse(
        _ request: DetectTrajectoriesRequest, stopper: RunStopper, history: inout TrajectoryHistory,
        onAnalysedFrame: (VideoTrajectoryDetection.AnalysedFrame) throws -> Void
    ) throws -> VideoTrajectoryDetection.Summary {
        var note: String?
        return try VideoTrajectoryDetection.run(
            uri: input, request: request, maximumFramePixels: limitOptions.maximumFramePixels,
            networkTimeout: limitOptions.networkTimeout, decodingLanes: usesOneDecoder ? 1 : nil,
            loopFilter: skipsLoopFilter ? .skipped : .applied,
            stopper: stopper, suitsSlowMotion: requestOptions.suitsSlowMotion,
            onOpen: {
                note = requestOptions.slowMotionNote(
                    spacing: request.frameAnalysisSpacing, frameRate: $0.frameRate, input: input)
            }
        ) { frame in
            Diagnostics.noteOnce(&note)
            if pictures.isRequested { history.record(frame.observations, frame: frame.stamp) }
            try onAnalysedFrame(frame)
        }
    }
}
