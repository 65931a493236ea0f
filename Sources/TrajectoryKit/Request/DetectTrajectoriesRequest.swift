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
    /// skipped. 0 analyses every frame. Unlike Vision's, it may change between frames (before
    /// the first, to suit the video once it is open: ``SlowMotion``); the next frame is then
    /// due that long after the last analysed one.
    public var frameAnalysisSpacing: Double
    /// Points a trajectory needs before it is reported; also the most ``TrajectoryObservation/detectedPoints`` holds.
    public let trajectoryLength: Int
    /// Smallest object radius reported, divided by the frame width. Default 0.
    public var objectMinimumNormalizedRadius: Double = 0
    /// Largest object radius reported, divided by the frame width. Default 1. Unlike on iOS,
    /// it really excludes larger moving objects such as players and arms.
    public var objectMaximumNormalizedRadius: Double = 1
    /// Where to look: normalized, origin at the bottom left; the whole frame by default.
    /// Coordinates in the results stay relative to the full frame. Only the region and a
    /// margin around it (5 % of the frame's width) are analysed, so a small region costs less.
    /// It may move between frames: a move of a few pixels is followed like a camera's pan, and
    /// a jump restarts detection, which then finds nothing for the next three frames.
    public var regionOfInterest: NormalizedRect = .full
    /// The trajectories that gained a point in the latest analysed frame; nil until a frame has
    /// been analysed. A frame skipped by the spacing leaves the results of the last analysed one.
    public private(set) var results: [TrajectoryObservation]?
    /// The frame ``results`` belong to: the latest analysed frame; nil before the first.
    public private(set) var resultsFrame: FrameStamp?
    /// Called after every analysed frame.
    public var completionHandler: CompletionHandler?
    /// Pixels: a frame is analysed shrunk 2 or 4 times in each direction as long as its long
    /// side stays at least this long, as Vision analyses at about 800 px. Default 800, so 1080p
    /// is analysed at 960 × 540 and 720p at full size; `Int.max` analyses every frame at full
    /// size. Results are always in coordinates of the full frame.
    public var minimumAnalysisLongSide: Int = defaultMinimumAnalysisLongSide
    /// The default of ``minimumAnalysisLongSide``.
    public static let defaultMinimumAnalysisLongSide = 800
    /// Seconds the analysis of one frame should take at most, or nil (the default) to analyse
    /// at the resolution ``minimumAnalysisLongSide`` gives. When set, the request measures its
    /// frames and, while they take longer than this, analyses them at a lower resolution
    /// (down to 240 px on the long side), finding fewer small or faint balls; when they are
    /// well within it again, it goes back up. Like Vision's `targetFrameTime`, a wish, not a
    /// guarantee; it never raises the resolution above the default.
    public var targetFrameTime: Double?
    /// How many times the latest analysed frame was shrunk in each direction before analysis
    /// (1, 2 or 4): by the request, or before it was handed over when that was more; 1 before
    /// the first frame.
    public private(set) var analysisReduction = 1

    /// How many times a `width` × `height` frame is shrunk for analysis when the long side must
    /// keep at least `minimumLongSide` pixels (see ``minimumAnalysisLongSide``): what a decoder
    /// may shrink frames by before handing them over, without a ``targetFrameTime``.
    public static func analysisReduction(width: Int, height: Int, minimumLongSide: Int) -> Int {
        AnalysisResolution.largestReduction(longSide: max(width, height), keeping: minimumLongSide)
    }
    /// Whether a helper thread may measure some of the moving regions on busy frames (16 or
    /// more regions, on a machine with two cores or more), beside the thread that calls
    /// ``perform``. Default true: the request starts the thread on its first busy frame, and
    /// it ends with the request. Results are the same either way; set it to false where many
    /// requests run side by side and each should use only its calling thread. Setting it to
    /// false ends a helper already started.
    public var usesHelperThread = true
    /// Bounds on the blobs and tracks one frame may cost; see ``ResourceLimits``.
    public var limits = ResourceLimits()
    /// How often ``limits`` bound the analysis so far.
    public private(set) var limitCounts = LimitCounts()

    private var sampler: FrameSampler
    private var detector = BlobDetector()
    private let tracker: TrajectoryTracker
    private var resolution = AnalysisResolution()
    /// The blobs of a cropped frame moved to full-frame pixels, reused from frame to frame.
    private var croppedBlobs: [Blob] = []
    /// Where the part of the frame the detector saw last began (full-frame pixels; the frame's
    /// corner when it saw the whole frame).
    private var lastAnalysedOrigin = PixelPoint(x: 0, y: 0)
    /// How far the region of interest moved since the last analysed frame, in analysed pixels,
    /// when the detector followed it: zero when it did not move or the detector restarted.
    private var followedRegionShift = CameraMotion.zero
    /// How far the camera has moved the picture since the first analysed frame, full-frame
    /// pixels: the sum of the detector's frame-to-frame measurements, which the tracker
    /// follows balls against (``TrajectoryTracker/update(blobs:frame:frameWidth:frameHeight:cameraOffset:)``).
    private var cameraOffset = CameraMotion.zero
    /// The largest move of the region of interest from one frame to the next, in analysed
    /// pixels, that the detector follows as camera motion (its coarse search reaches 16 px);
    /// a larger one restarts it.
    static let largestFollowedRegionShift = 16

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
    /// - Parameters:
    ///   - shrunkBy: how many times the plane was already shrunk by ``FrameShrinking`` (`layout`
    ///     is then the shrunk plane's, and `frameWidth` × `frameHeight` the frame's own size).
    @discardableResult
    func perform(
        luma: Span<UInt8>, layout: PlaneLayout, shrunkBy: Int = 1, frameWidth: Int? = nil, frameHeight: Int? = nil,
        frame: FrameStamp
    ) throws(ConfigurationError) -> Bool {
        try applySettings()
        guard sampler.shouldAnalyze(frameAt: frame.time) else { return false }
        let width = frameWidth ?? layout.width, height = frameHeight ?? layout.height
        let reduction = resolution.reduction(
            width: width, height: height, minimumLongSide: minimumAnalysisLongSide, targetFrameTime: targetFrameTime)
        if reduction != detector.configuration.analysisReduction { detector.configuration.analysisReduction = reduction }
        // The detector analyses a frame handed over shrunk more than that as it is.
        analysisReduction = max(reduction, shrunkBy)
        let start = targetFrameTime == nil ? nil : ContinuousClock.now
        let blobs: [Blob]
        if let crop = AnalysisCrop(
            region: regionOfInterest, frameWidth: width, frameHeight: height, shrunkBy: shrunkBy,
            analysedAt: analysisReduction, layout: layout)
        {
            configureDetector(frameWidth: width, crop: crop)
            let offset = crop.offset(in: layout), cropLayout = crop.layout(in: layout)
            let found = detector.detect(
                luma: luma.extracting(offset..<(offset + cropLayout.minimumByteCount)), layout: cropLayout,
                shrunkBy: shrunkBy)
            croppedBlobs.removeAll(keepingCapacity: true)
            for blob in found {
                let moved = crop.toFullFrame(blob)
                if regionOfInterest.contains(moved.center.normalized(width: width, height: height)) { croppedBlobs.append(moved) }
            }
            blobs = croppedBlobs
        } else {
            configureDetector(frameWidth: width, crop: nil)
            blobs = detector.detect(luma: luma, layout: layout, shrunkBy: shrunkBy)
        }
        let kept = keepingLargest(limits.maximumBlobsPerFrame, of: blobs)
        if kept.count < blobs.count { limitCounts.framesOverBlobLimit += 1 }
        limitCounts.mostBlobsInAFrame = max(limitCounts.mostBlobsInAFrame, blobs.count)
        // Drop the last results first: the tracker refills their storage when nothing else holds it.
        results = nil
        accumulateCameraMotion()
        let origin = lastAnalysedOrigin
        results = tracker.update(
            blobs: kept, frame: frame, frameWidth: width, frameHeight: height, cameraOffset: cameraOffset
        ) { center, radius, travel in
            detector.motionBeside(PixelPoint(x: center.x - origin.x, y: center.y - origin.y), radius: radius, travel: travel)
        }
        limitCounts.tracksNotStarted = tracker.tracksNotStarted
        resultsFrame = frame
        // Frames before the detector compares any (the first after a restart) cost less: not counted.
        if let start, let targetFrameTime, detector.lastThresholds != nil {
            let elapsed = (ContinuousClock.now - start).components
            resolution.record(
                frameTime: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18, targetFrameTime: targetFrameTime)
        }
        completionHandler?(self)
        return true
    }

    /// Throws a ``ConfigurationError`` naming the first setting out of its range, as performing
    /// the request would.
    public func validateSettings() throws(ConfigurationError) {
        try applySettings()
    }

    /// Passes the current filter settings to the detector, after checking them: they are plain
    /// properties, as in Vision, so they can change between frames.
    private func applySettings() throws(ConfigurationError) {
        if frameAnalysisSpacing != sampler.spacing {
            try ConfigurationError.check("frameAnalysisSpacing", frameAnalysisSpacing, in: 0...Double.greatestFiniteMagnitude)
            sampler.spacing = frameAnalysisSpacing
        }
        try ConfigurationError.check("objectMinimumNormalizedRadius", objectMinimumNormalizedRadius, in: 0...1)
        try ConfigurationError.check(
            "objectMaximumNormalizedRadius", objectMaximumNormalizedRadius, in: objectMinimumNormalizedRadius...1)
        guard regionOfInterest.isValidRegionOfInterest else {
            throw ConfigurationError(
                parameter: "regionOfInterest", value: "\(regionOfInterest)",
                allowedRange: "rectangles of positive size inside (0, 0, 1, 1)")
        }
        try ConfigurationError.check("minimumAnalysisLongSide", minimumAnalysisLongSide, in: 1...Int.max)
        if let targetFrameTime {
            try ConfigurationError.check("targetFrameTime", targetFrameTime, in: Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude)
        }
        try limits.validate()
        tracker.maximumLiveTracks = limits.maximumLiveTracks
        detector.wholeMeasurement.sharing = usesHelperThread ? .busyFrames : .never
    }

    /// What the detector's helper thread holds while it runs, if it was started (for tests).
    var helperThreadState: AnyObject? { detector.wholeMeasurement.helperThreadState }

    /// Adds the camera's motion since the last analysed frame to ``cameraOffset``, when the
    /// detector measured one clearly (``BlobDetector/lastCameraMotionIsClear``): a false motion
    /// would stay in the sum. The detector measures the motion of the picture it is lent: when
    /// that is a region of interest that moved, the picture moved the other way as well, which
    /// is not the camera's doing.
    private func accumulateCameraMotion() {
        guard detector.lastCameraMotionIsClear, let motion = detector.lastCameraMotion else { return }
        let scale = Double(analysisReduction)
        cameraOffset = cameraOffset.followed(
            by: CameraMotion(dx: (motion.dx + followedRegionShift.dx) * scale, dy: (motion.dy + followedRegionShift.dy) * scale))
    }

    /// Passes the filter settings to the detector: as they are, or, when it analyses a crop of
    /// the frame, with the radius limits relative to the crop's width, and the region of interest
    /// left to ``perform(luma:layout:shrunkBy:frameWidth:frameHeight:frame:)`` to apply.
    private func configureDetector(frameWidth: Int, crop: AnalysisCrop?) {
        // A region of interest that moves shifts what the detector sees as a camera's pan
        // would, and a shift of a few pixels is measured and allowed for like one. A jump
        // beyond what the camera-motion search follows leaves it comparing other parts of the
        // picture: the detector starts afresh. (A change of size restarts it by itself.)
        let origin = crop?.fullFrameOrigin ?? PixelPoint(x: 0, y: 0)
        let shift = (x: (origin.x - lastAnalysedOrigin.x) / Double(analysisReduction),
                     y: (origin.y - lastAnalysedOrigin.y) / Double(analysisReduction))
        followedRegionShift = .zero
        if max(abs(shift.x), abs(shift.y)) > Double(Self.largestFollowedRegionShift) {
            detector.reset()
        } else if shift.x != 0 || shift.y != 0 {
            detector.viewMoved(by: shift)
            followedRegionShift = CameraMotion(dx: shift.x, dy: shift.y)
        }
        lastAnalysedOrigin = origin
        var configuration = detector.configuration
        let radiusScale = crop.map { Double(frameWidth) / Double($0.fullFrameWidth) } ?? 1
        configuration.minimumNormalizedRadius = objectMinimumNormalizedRadius * radiusScale
        configuration.maximumNormalizedRadius = objectMaximumNormalizedRadius * radiusScale
        configuration.regionOfInterest = crop == nil ? regionOfInterest : .full
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
                "\(limitCounts.tracksNotStarted) blob detections started no track because \(limits.maximumLiveTracks) tracks "
                    + "were already alive; the tracks already followed were kept")
        }
        return warnings
    }
}
