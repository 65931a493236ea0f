import Foundation
import TrajectoryKit

/// Runs a ``DetectTrajectoriesRequest`` over every frame of a video, so memory stays flat
/// however long the video is.
///
/// Decoding runs on a thread of its own, up to 14 frames ahead of the analysis on the caller's
/// thread (6 at 1080p, see ``DecodingLookahead``), so the two overlap on a machine with more
/// than one core; FFmpeg decodes on one thread per core but one, the other being the
/// analysis's. A decoded frame whose luma plane is 8-bit and shown unrotated, as nearly every
/// video's is, is handed to the analysis without a copy, and the request shrinks it there
/// (1080p to 960 × 540 by default, see ``DetectTrajectoriesRequest/minimumAnalysisLongSide``).
/// Other frames are converted, turned and shrunk by the decoding thread as it copies them out.
///
/// ```swift
/// let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
/// let summary = try VideoTrajectoryDetection.run(uri: "swing.mp4", request: request) { frame in
///     for observation in frame.observations { print(frame.stamp.time, observation.uuid) }
/// }
/// print(summary.framesDecoded, summary.warnings)
/// ```
public enum VideoTrajectoryDetection {
    /// One frame the request analysed.
    public struct AnalysedFrame: Sendable {
        public var stamp: FrameStamp
        /// The frame's size as displayed, in pixels.
        public var width: Int
        public var height: Int
        /// The trajectories that gained a point in this frame (often none).
        public var observations: [TrajectoryObservation]
    }

    /// What a run went through.
    public struct Summary: Sendable, Hashable {
        /// The video as its container describes it; when that states no frame size, with
        /// the size of the frames decoded.
        public var info: VideoInfo
        /// Frames decoded, in presentation order; after an early stop, the frames taken for
        /// analysis (the results cover those).
        public var framesDecoded: Int
        /// Frames the request analysed (fewer than decoded when it has a frame spacing).
        public var framesAnalysed: Int
        /// Presentation time of the last decoded frame, in seconds.
        public var lastFrameTime: Double?
        /// Problems that did not stop the run (a truncated file, damaged packets, a resource
        /// limit that bound, a video too short to hold a trajectory), one line each.
        public var warnings: [String]
        /// Whether a ``RunStopper`` ended the run before the video's end.
        public var stoppedEarly = false

        /// The video's duration: the container's, or the decoded frames' span when that is longer
        /// (a container that states none, or a spliced stream whose times went on past it).
        public var duration: Double {
            guard let lastFrameTime else { return max(info.duration, 0) }
            return max(info.duration, lastFrameTime + (info.frameRate > 0 ? 1 / info.frameRate : 0))
        }
    }

    /// The most pixels a frame may have by default: 8K UHD (7680 × 4320). The detector keeps
    /// about 11 bytes of history per pixel, so this bounds its memory near 400 MB, whatever
    /// size a damaged or hostile header claims.
    public static let defaultMaximumFramePixels = 7680 * 4320

    /// FFmpeg's decoding threads unless a run says otherwise: one core fewer than the machine
    /// has, the other being the analysis's, at least one and at most FFmpeg's own cap on its
    /// automatic count (16, each thread holding a frame in flight). FFmpeg's own choice, a
    /// thread more than there are cores, runs four busy threads on two cores; one decoding
    /// thread there took 8 % less CPU at 720p and 1080p alike, and less wall time than two or
    /// FFmpeg's three (README, "Speed").
    public static var defaultDecodingThreads: Int { allowedDecodingThreads.clamped(ProcessInfo.processInfo.activeProcessorCount - 1) }

    /// The decoding threads a run may be given.
    public static let allowedDecodingThreads = 1...16

    /// The decoding lanes a run may be given: one decoder, or two side by side.
    public static let allowedDecodingLanes = 1...2

    /// Decodes `uri` and performs `request` on every frame.
    ///
    /// - Parameters:
    ///   - maximumFramePixels: the largest frame, in pixels (width × height), to analyse; a
    ///     video with larger frames fails with ``VideoError/Kind/frameTooLarge`` before the
    ///     detector allocates anything for it.
    ///   - networkTimeout: seconds a network stream may send nothing before the run ends (see
    ///     ``VideoReader/init(uri:networkTimeout:)``).
    ///   - decodingThreads: FFmpeg's decoding threads, brought within ``allowedDecodingThreads``;
    ///     nil leaves one core to the analysis and gives FFmpeg the others
    ///     (``defaultDecodingThreads``).
    ///   - decodingLanes: 2 lets two decoders, side by side, each decode every other segment
    ///     between IDR keyframes of a local H.264 or HEVC file (``allowedDecodingLanes``); nil
    ///     does so on a machine of more than one core. They do from the start when the frames
    ///     are analysed shrunk or sparsely, and otherwise from the first cut where the analysis
    ///     has been waiting for decoding (``SecondLaneTrigger``). The frames, and so the results,
    ///     are the same; two lanes are faster on two cores, and let each decoder's frames wait,
    ///     shrunk, in up to 128 MB for both while the analysis takes the other's (``DecodingLanes``).
    ///   - loopFilter: whether the decoder runs the codec's loop filter; skipping it decodes
    ///     H.264 about a quarter faster, for slightly less accurate pictures (``LoopFilter``).
    ///   - lookahead: how many decoded frames may wait for the analysis (``DecodingLookahead``):
    ///     more ride out the analysis's slow stretches, fewer take less memory.
    ///   - stopper: lets another thread end the run early and still get its summary and the
    ///     frames analysed so far (``Summary/stoppedEarly``).
    ///   - suitsSlowMotion: when true, a request of no ``DetectTrajectoriesRequest/frameAnalysisSpacing``
    ///     gets the spacing that analyses a slow-motion video at about 30 frames a second
    ///     (``SlowMotion/frameAnalysisSpacing(forFrameRate:)``: one frame in 8 at 240 fps),
    ///     once the video is open and before `onOpen`. Decoding is planned for it: with one
    ///     frame in 4 or fewer analysed, a local file is decoded by two decoders side by side
    ///     at any size, where a spacing set in `onOpen` leaves decoding planned for every frame.
    ///   - onOpen: called once the video is open, with what its container says of it, before
    ///     the first frame is analysed: the place to suit the request to the video.
    ///   - onAnalysedFrame: called after every frame the request analysed, in presentation order.
    /// - Throws: ``VideoError`` when the video cannot be opened or read or holds no decodable
    ///   frame (damage may still leave some: those are kept, with warnings), or when `stopper`
    ///   stops the run before the video is open (``VideoError/Kind/stoppedBeforeOpening``), `ConfigurationError`
    ///   when the request's settings are out of range, or what `onOpen` or `onAnalysedFrame` throws.
    public static func run(
        uri: String, request: DetectTrajectoriesRequest, maximumFramePixels: Int = defaultMaximumFramePixels,
        networkTimeout: Double = VideoReader.defaultNetworkTimeout, decodingThreads: Int? = nil,
        decodingLanes: Int? = nil, loopFilter: LoopFilter = .applied, lookahead: DecodingLookahead = .default, stopper: RunStopper? = nil,
        suitsSlowMotion: Bool = false, onOpen: (VideoInfo) throws -> Void = { _ in },
        onAnalysedFrame: (AnalysedFrame) throws -> Void
    ) throws -> Summary {
        try request.validateSettings()  // before the thread starts, which reads two of them
        let plannedSpacing = PlannedAnalysisSpacing(spacing: request.frameAnalysisSpacing, suitsSlowMotion: suitsSlowMotion)
        let decoding = DecodingThread(
            uri: uri, networkTimeout: networkTimeout, decoderThreads: decodingThreads.map(allowedDecodingThreads.clamped) ?? defaultDecodingThreads,
            loopFilter: loopFilter, lookahead: lookahead,
            sizeLimit: FrameSizeLimit(uri: uri, maximumPixels: maximumFramePixels),
            minimumAnalysisLongSide: request.minimumAnalysisLongSide, plannedSpacing: plannedSpacing,
            lanes: decodingLanes.map(allowedDecodingLanes.clamped) ?? DecodingLanes.count)
        // However the run ends, the decoding thread is stopped; after an early end it is waited
        // for, with the input closed, unless the input is one that may never answer.
        defer { decoding.stop() }
        // Before the wait for the video to open: a stop may come while FFmpeg still probes it.
        stopper?.attach(decoding)
        defer { stopper?.detach() }
        var info = try decoding.waitUntilOpen()
        // As the decoding thread planned for it.
        request.frameAnalysisSpacing = plannedSpacing.spacing(atFrameRate: info.frameRate)
        try onOpen(info)
        let handler = SequenceRequestHandler()
        let requests = [request]  // made once: a literal in the loop would allocate every frame
        var framesAnalysed = 0, framesTaken = 0
        var lastFrameTime: Double?
        while let frame = try decoding.withNextFrame({ plane, frame in
            try handler.perform(
                requests, luma: plane, layout: frame.layout, shrunkBy: frame.shrunkBy, frameWidth: frame.width,
                frameHeight: frame.height, frame: frame.stamp)
            return frame
        }) {
            lastFrameTime = frame.stamp.time
            framesTaken += 1
            // A stream whose start FFmpeg could not decode while probing it states no size:
            // it is the frames'.
            if info.width <= 0 || info.height <= 0 { (info.width, info.height) = (frame.width, frame.height) }
            if request.resultsFrame == frame.stamp {
                framesAnalysed += 1
                try onAnalysedFrame(AnalysedFrame(
                    stamp: frame.stamp, width: frame.width, height: frame.height, observations: request.results ?? []))
            }
        }
        // A stop that came once every frame was taken found the run complete already.
        if stopper?.isRequested == true, !decoding.hasDeliveredWholeStream {
            // Not even the video's size was known when it stopped: there is nothing to summarize.
            if info.width <= 0 || info.height <= 0 {
                throw VideoError(.stoppedBeforeOpening, uri: uri, detail: VideoError.noFrameDecodedYet)
            }
            return stoppedSummary(
                decoding: decoding, info: info, framesTaken: framesTaken, framesAnalysed: framesAnalysed,
                lastFrameTime: lastFrameTime, request: request)
        }
        // The loop ends only once the queue has seen the decoding thread finish, its last act:
        // its counts are the caller's to read from here.
        // An empty result would read as "no ball here"; a video with no decodable frame is an error.
        guard decoding.framesRead > 0 else {
            throw VideoError(
                .readFailed, uri: uri,
                detail: "no frame could be decoded" + (decoding.warnings.first.map { " (\($0))" } ?? ""))
        }
        var warnings = decoding.warnings + request.limitWarnings
        if let tooFew = tooFewFramesWarning(analysed: framesAnalysed, request: request) { warnings.append(tooFew) }
        return Summary(
            info: info, framesDecoded: decoding.framesRead, framesAnalysed: framesAnalysed,
            lastFrameTime: lastFrameTime, warnings: warnings)
    }

    /// The summary of a run ended by its ``RunStopper``: the frames taken for analysis stand
    /// for those decoded (the decoder may have read a few more, unanalysed), and the decoding
    /// thread's warnings are read only when it could be waited for.
    private static func stoppedSummary(
        decoding: DecodingThread, info: VideoInfo, framesTaken: Int, framesAnalysed: Int, lastFrameTime: Double?,
        request: DetectTrajectoriesRequest
    ) -> Summary {
        let finished = decoding.stop()
        let covered = lastFrameTime.map { " (up to \(String(format: "%.3f", $0)) s)" } ?? ""
        let warnings = (finished ? decoding.warnings : []) + request.limitWarnings
            + ["stopped early: the results cover the first \(framesTaken) frame\(framesTaken == 1 ? "" : "s")\(covered)"]
        var summary = Summary(
            info: info, framesDecoded: framesTaken, framesAnalysed: framesAnalysed,
            lastFrameTime: lastFrameTime, warnings: warnings)
        summary.stoppedEarly = true
        return summary
    }

    /// Why a run could not have found any trajectory, when it analysed too few frames for one:
    /// an empty result must not read as "no ball here".
    static func tooFewFramesWarning(analysed: Int, request: DetectTrajectoriesRequest) -> String? {
        let needed = BlobDetector.framesWithoutMotion + request.trajectoryLength
        guard analysed < needed else { return nil }
        return "only \(analysed) frame\(analysed == 1 ? " was" : "s were") analysed, and a trajectory needs \(needed) "
            + "(\(BlobDetector.framesWithoutMotion) before motion shows, then a trajectory length of "
            + "\(request.trajectoryLength) points): none could be found"
    }
}

/// Refuses frames larger than a run may analyse, naming the size and the limit.
struct FrameSizeLimit {
    let uri: String
    let maximumPixels: Int

    /// The largest picture FFmpeg may decode, so that it does not allocate a huge frame (or
    /// several, one per decoding thread) before ``check(width:height:)`` can refuse it.
    /// FFmpeg counts a picture with its rows padded and its height rounded up to whole blocks,
    /// so it gets twice the room: frames in between decode and are refused by ``check``, with
    /// the size and the option that raises the limit in the message. FFmpeg takes no limit
    /// above `Int32.max`.
    var decodedPixelLimit: Int { Self.decodedPixelLimit(allowing: maximumPixels) }

    /// ``decodedPixelLimit`` for frames of at most `maximumPixels`.
    static func decodedPixelLimit(allowing maximumPixels: Int) -> Int {
        Int(Int32.max) / 2 < maximumPixels ? Int(Int32.max) : maximumPixels * 2
    }

    func check(width: Int, height: Int) throws(VideoError) {
        // A damaged header may claim sizes whose product overflows.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            throw VideoError(
                .frameTooLarge, uri: uri,
                detail: "its \(width)×\(height) frames exceed the limit of \(maximumPixels) pixels per frame")
        }
    }
}

extension ClosedRange<Int> {
    /// `value`, or the nearer bound when it lies outside.
    fileprivate func clamped(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
