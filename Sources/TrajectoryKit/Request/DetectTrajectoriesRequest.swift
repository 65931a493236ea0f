import struct Foundation.UUID

/// Finds balls in flight across the frames of one video stream and reports each flight as a
/// ``TrajectoryObservation``: the counterpart of Vision's `VNDetectTrajectoriesRequest`.
///
/// As in Vision the request is stateful: perform it on every frame of one stream, in
/// presentation order, through a ``SequenceRequestHandler``, and read ``results`` after each
/// analysed frame. It skips frames by ``frameAnalysisSpacing`` itself, so hand it every frame.
/// Use one request per stream; a request is not meant to be shared between threads.
///
/// ```swift
/// let request = try DetectTrajectoriesRequest(frameAnalysisSpacing: 0, trajectoryLength: 10)
/// request.objectMaximumNormalizedRadius = 0.05
/// let handler = SequenceRequestHandler()
/// for (index, image) in frames.enumerated() {
///     try handler.perform([request], on: image, frame: FrameStamp(index: index, time: Double(index) / 30))
///     for trajectory in request.results ?? [] {
///         print(trajectory.uuid, trajectory.equationCoefficients)
///     }
/// }
/// ```
public final class DetectTrajectoriesRequest {
    /// Called after every frame the request analysed; read ``results`` from the request.
    public typealias CompletionHandler = (DetectTrajectoriesRequest) -> Void

    /// Seconds: after an analysed frame, frames whose timestamps fall within this spacing are
    /// skipped. 0 analyses every frame.
    public let frameAnalysisSpacing: Double
    /// Points a trajectory needs before it is reported; also the most ``TrajectoryObservation/detectedPoints`` holds.
    public let trajectoryLength: Int
    /// Smallest object radius reported, divided by the frame width. Default 0.
    public var objectMinimumNormalizedRadius: Double = 0
    /// Largest object radius reported, divided by the frame width. Default 1. Unlike on iOS,
    /// it really excludes larger moving objects such as players and arms.
    public var objectMaximumNormalizedRadius: Double = 1
    /// Where to look: normalized, origin at the bottom left; the whole frame by default.
    /// Coordinates in the results stay relative to the full frame.
    public var regionOfInterest: NormalizedRect = .full
    /// The trajectories that gained a point in the latest analysed frame; nil until a frame has
    /// been analysed. A frame skipped by the spacing leaves the results of the last analysed one.
    public private(set) var results: [TrajectoryObservation]?
    /// The frame ``results`` belong to: the latest analysed frame; nil before the first.
    public private(set) var resultsFrame: FrameStamp?
    /// Called after every analysed frame.
    public var completionHandler: CompletionHandler?
    /// Bounds on the blobs and tracks one frame may cost; see ``ResourceLimits``.
    public var limits = ResourceLimits()
    /// How often ``limits`` bound the analysis so far.
    public private(set) var limitCounts = LimitCounts()

    private var sampler: FrameSampler
    private var detector = BlobDetector()
    private let tracker: TrajectoryTracker

    /// - Parameter makeUUID: where trajectory uuids come from; random by default. Inject a
    ///   sequence to make output reproducible.
    /// - Throws: ``ConfigurationError`` naming the allowed range when `trajectoryLength` is
    ///   below 5 or the spacing is negative or not a number.
    public init(
        frameAnalysisSpacing: Double = 0, trajectoryLength: Int,
        makeUUID: @escaping () -> UUID = UUID.init,
        completionHandler: CompletionHandler? = nil
    ) throws(ConfigurationError) {
        self.sampler = try FrameSampler(spacing: frameAnalysisSpacing)
        self.tracker = try TrajectoryTracker(trajectoryLength: trajectoryLength, makeID: makeUUID)
        self.frameAnalysisSpacing = frameAnalysisSpacing
        self.trajectoryLength = trajectoryLength
        self.completionHandler = completionHandler
    }

    /// Analyses one frame unless the spacing skips it.
    ///
    /// - Returns: whether the frame was analysed (and ``results`` replaced).
    @discardableResult
    func perform(luma: Span<UInt8>, layout: PlaneLayout, frame: FrameStamp) throws(ConfigurationError) -> Bool {
        try applySettings()
        guard sampler.shouldAnalyze(frameAt: frame.time) else { return false }
        let allBlobs = detector.detect(luma: luma, layout: layout)
        let blobs = keepingLargest(limits.maximumBlobsPerFrame, of: allBlobs)
        if blobs.count < allBlobs.count { limitCounts.framesOverBlobLimit += 1 }
        limitCounts.mostBlobsInAFrame = max(limitCounts.mostBlobsInAFrame, allBlobs.count)
        results = tracker.update(blobs: blobs, frame: frame, frameWidth: layout.width, frameHeight: layout.height)
        limitCounts.tracksNotStarted = tracker.tracksNotStarted
        resultsFrame = frame
        completionHandler?(self)
        return true
    }

    /// Passes the current filter settings to the detector, after checking them: they are plain
    /// properties, as in Vision, so they can change between frames.
    private func applySettings() throws(ConfigurationError) {
        try ConfigurationError.check("objectMinimumNormalizedRadius", objectMinimumNormalizedRadius, in: 0...1)
        try ConfigurationError.check(
            "objectMaximumNormalizedRadius", objectMaximumNormalizedRadius, in: objectMinimumNormalizedRadius...1)
        guard regionOfInterest.isValidRegionOfInterest else {
            throw ConfigurationError(
                parameter: "regionOfInterest", value: "\(regionOfInterest)",
                allowedRange: "rectangles of positive size inside (0, 0, 1, 1)")
        }
        try limits.validate()
        tracker.maximumLiveTracks = limits.maximumLiveTracks
        var configuration = detector.configuration
        configuration.minimumNormalizedRadius = objectMinimumNormalizedRadius
        configuration.maximumNormalizedRadius = objectMaximumNormalizedRadius
        configuration.regionOfInterest = regionOfInterest
        if configuration != detector.configuration { detector.configuration = configuration }
    }
}

extension DetectTrajectoriesRequest {
    /// One line for each of ``limits`` that bound the analysis so far, saying how often and
    /// what was kept; empty when none did.
    public var limitWarnings: [String] {
        var warnings: [String] = []
        if limitCounts.framesOverBlobLimit > 0 {
            warnings.append(
                "\(limitCounts.framesOverBlobLimit) frames had more than \(limits.maximumBlobsPerFrame) moving blobs "
                    + "(up to \(limitCounts.mostBlobsInAFrame)); the largest \(limits.maximumBlobsPerFrame) of each were kept")
        }
        if limitCounts.tracksNotStarted > 0 {
            warnings.append(
                "\(limitCounts.tracksNotStarted) blobs started no track because \(limits.maximumLiveTracks) tracks "
                    + "were already alive; the tracks already followed were kept")
        }
        return warnings
    }
}
