/// Finds small moving objects, candidate balls, in a stream of luma frames.
///
/// Feed it every analysed frame in order. For each frame it
/// 1. smooths the frame into its own history (``BinomialSmoother``),
/// 2. measures how far the camera moved the picture since the earlier frames, so that a
///    hand-held camera's shake does not show as motion (``lastCameraMotion``),
/// 3. takes the smallest difference between it and each of the three frames before it, each
///    read where the camera's motion puts the same point of the scene (``FrameDifferencing``),
///    which marks where the object is *now*,
/// 4. estimates the frame's noise from that difference and sets a low and a high threshold
///    from it (``MotionThresholds``),
/// 5. joins pixels above the low threshold into regions, keeping those that reach the high
///    one somewhere,
/// 6. measures each region as a ``Blob``, where possible whole, in its difference from an
///    earlier frame (up to 32 back) that the object has moved clear of, since a ball moving
///    less than its diameter per frame shows only part of itself in the motion image, and
///    each pixel weighted by how much of it the object covers, which the background's texture
///    does not sway; regions that are only the ghost of where a ball was are dropped
///    (``WholeObjectRefiner``); on a frame with many regions a helper thread measures some of
///    them, with the same result (``SharedRegionMeasurement``);
/// 7. with a still camera, looks inside each large region (a person walking) for a small part
///    that moves unlike the rest, a ball passing in front of the person (``MovingRegionSplitter``);
///    and
/// 8. keeps the blobs that pass the configured area, radius and region-of-interest filters
///    (dropping, too, the small pieces that lie on an object too large for the maximum radius).
///
/// A detector holds the history of one stream (eleven smoothed frames: about 10 MB at 720p,
/// 23 MB at 1080p): use one per stream, and do not share one between threads. It starts its
/// helper thread on the first busy frame, and the thread ends with the detector. After the first
/// frame of a given size it allocates nothing, except when the caller keeps the array a call
/// returned past the next call, or a frame brings larger moving regions than any before.
public struct BlobDetector {
    /// The settings every later frame is analysed with.
    public var configuration: Configuration {
        didSet { configuration.validate() }
    }
    /// The thresholds applied to the last analysed frame; nil until four frames have been seen.
    public private(set) var lastThresholds: MotionThresholds?
    /// How far the picture the detector is lent moved from the frame before the last analysed
    /// one to that one; nil until two frames have been seen. Exactly ``CameraMotion/zero`` when
    /// it did not measurably move (a camera on a tripod), and then the frames are compared pixel
    /// by pixel. It includes a move of the view itself (``viewMoved(by:)``, a region of interest
    /// that follows something), and is that move alone when the picture has too little texture
    /// to measure.
    public private(set) var lastCameraMotion: CameraMotion?
    /// Whether ``lastCameraMotion`` is clearly the camera's: a motion (not none) that takes
    /// away at least ``leastExplainedMisfit`` of the misfit the tracking points show with no
    /// motion. A picture of nothing but noise, whose codec copies patches of the last frame's
    /// noise from a pixel or two away, fits a little better at such an offset: enough to pass
    /// for a motion over a thousand points, and harmless for comparing frames, but a false
    /// motion must not be added up into where the camera has gone.
    private(set) var lastCameraMotionIsClear = false
    /// See ``lastCameraMotionIsClear``. A motion of a pixel or more over textured scenery takes
    /// away 60 to 90 % of the misfit on the shaken scenes; a noise-only picture's false motions
    /// 3 to 12 %. Motions under a pixel often take away less than half: they are within the
    /// noise of a ball's centre anyway.
    static let leastExplainedMisfit = 0.5
    /// Camera motion counts as none when it is smaller than this many pixels in both
    /// directions, or than three standard errors of its measurement (on a small frame with
    /// little texture, noise alone sways a still camera's by a few hundredths of a pixel).
    /// Misreading the background by that much changes no pixel by more than noise.
    public static let stillCameraTolerance = 0.05

    /// How many frames of a stream (or after ``reset()``) give no blobs: the motion image
    /// compares each frame with the three before it.
    public static let framesWithoutMotion = 3

    private var history = SmoothedFrameHistory()
    private var cameraEstimator = CameraMotionEstimator()
    /// How far the camera moved the picture since the frame of each age (index) up to the
    /// oldest stored, for the current frame.
    private var motionSince = [CameraMotion](repeating: .zero, count: SmoothedFrameHistory.oldestAge + 1)
    /// How far the picture moved because the part of the frame the detector is lent moved since
    /// the last frame (``viewMoved(by:)``), in analysed pixels; used when the camera's motion
    /// cannot be measured.
    private var viewMotion = CameraMotion.zero
    private var motion: [UInt8] = []
    private var noiseEstimator = MotionNoiseEstimator()
    private var regionFinder = MotionRegionFinder()
    /// Measures the regions whole, on busy frames with a helper thread (internal for tests).
    var wholeMeasurement = SharedRegionMeasurement()
    private var selection = BlobSelection()
    private var splitter = MovingRegionSplitter()
    private var blobs: [Blob] = []
    /// The frame shrunk by ``Configuration/analysisReduction``, when it is more than 1.
    private var reducedFrame = ReducedFrame()
    /// For ``motionBeside(_:radius:travel:)``: the last frame's reduction from the full frame,
    /// and the mean change a still pixel shows in its motion image. Nil when the last frame
    /// made no motion image.
    private var lastMotion: (reduction: Int, stillLevel: Double)?

    public init(configuration: Configuration = .init()) {
        configuration.validate()
        self.configuration = configuration
    }

    /// Analyses the next frame of the stream and returns the moving blobs found in it.
    ///
    /// Returns no blobs until four frames have been seen (after ``reset()``, or after the
    /// frame size or ``Configuration/analysisReduction`` changed, which resets the history by
    /// itself). Blob coordinates are pixels of the full frame, top-left origin. The plane is
    /// only read during the call.
    ///
    /// - Parameter shrunkBy: how many times the plane was already shrunk in each direction by
    ///   ``FrameShrinking`` (1, 2 or 4), so that `layout` is the shrunk plane's; the detector
    ///   shrinks it further to its ``Configuration/analysisReduction`` when that is larger, and
    ///   analyses it as it is when that is smaller. Blobs are in pixels of the unshrunk frame.
    public mutating func detect(luma: Span<UInt8>, layout: PlaneLayout, shrunkBy: Int = 1) -> [Blob] {
        precondition(luma.count >= layout.minimumByteCount, "the plane must hold \(layout.minimumByteCount) bytes")
        precondition(
            Configuration.allowedAnalysisReductions.contains(shrunkBy),
            "shrunkBy must be one of \(Configuration.allowedAnalysisReductions), got \(shrunkBy)")
        blobs.removeAll(keepingCapacity: true)
        lastThresholds = nil
        lastMotion = nil
        let further = appendToHistory(
            luma, layout: layout, shrinkingBy: max(configuration.analysisReduction, shrunkBy) / shrunkBy)
        let reduction = shrunkBy * further
        guard let historyLayout = history.layout else { return blobs }
        measureCameraMotion(layout: historyLayout)
        guard history.contains(age: Self.framesWithoutMotion) else { return blobs }

        computeMotion(layout: historyLayout)
        // A span of a stored array borrows all of `self`; one of this local (the same buffer,
        // not a copy) leaves the other stages free to update themselves.
        let motionPlane = motion
        let thresholds = MotionThresholds(
            noiseSigma: noiseEstimator.noiseSigma(of: motionPlane.span, layout: historyLayout),
            configuration: configuration)
        lastThresholds = thresholds
        regionFinder.findRegions(in: motionPlane.span, layout: historyLayout, thresholds: thresholds)
        let stillPixelChange = noiseEstimator.meanChange(below: thresholds.low)
        lastMotion = (reduction, stillPixelChange)
        selection.removeAll()
        splitter.startFrame()
        wholeMeasurement.measure(
            regionsOf: regionFinder, minimumArea: configuration.minimumArea, motion: motionPlane, history: history,
            cameraMotionSince: motionSince, layout: historyLayout, thresholds: thresholds)
        for index in wholeMeasurement.measuredRegions {
            let region = regionFinder.regions[index]
            let blob: Blob
            switch wholeMeasurement.outcome(ofRegion: index) {
            case .whole(let whole):
                blob = Blob(measuring: whole.moments, remeasured: whole.measurement)
                selection.add(
                    blob, region: whole.moments, isWhole: true, configuration: configuration,
                    frameWidth: historyLayout.width)
            case .unresolved:
                let remeasured = EdgeInclusiveMeasurement(
                    region: region, motion: motionPlane.span, layout: historyLayout, noiseLevel: stillPixelChange)
                blob = Blob(measuring: region, remeasured: remeasured)
                selection.add(
                    blob, region: region, isWhole: false, configuration: configuration, frameWidth: historyLayout.width)
            case .ghost:
                continue
            }
            if cameraIsStill,
                MovingRegionSplitter.isCandidate(region, radius: blob.radius, frameWidth: historyLayout.width)
            {
                splitter.split(
                    region, regionRadius: blob.radius, motion: motionPlane.span, history: history,
                    layout: historyLayout, thresholds: thresholds, noiseLevel: stillPixelChange,
                    minimumArea: configuration.minimumArea)
            }
        }
        for piece in splitter.pieces {
            selection.addSplitPiece(piece, configuration: configuration, frameWidth: historyLayout.width)
        }
        // The filters are normalized to the frame's size, so they apply to the analysed frame alike.
        selection.select(
            into: &blobs, configuration: configuration, frameWidth: historyLayout.width, frameHeight: historyLayout.height)
        splitter.noteBlobs(blobs)
        if reduction > 1 {
            for index in blobs.indices { blobs[index] = blobs[index].inFullFrame(reducedBy: reduction) }
        }
        return blobs
    }

    /// How much the picture changed from the frame before to the last analysed one beside a
    /// ball at `center` with `radius` (pixels of the full frame, as blobs are), across its
    /// `travel`: see ``SideMotion``. Nil when that frame gave no motion image, or the ball
    /// barely changed in it.
    public func motionBeside(_ center: PixelPoint, radius: Double, travel: PixelVector) -> SideMotion? {
        guard let lastMotion, let layout = history.layout else { return nil }
        let scale = 1 / Double(lastMotion.reduction)
        // A scene point at p in the frame before shows at p + motion now.
        let cameraMotion = motionSince[1]
        let meter = SideMotionMeter(
            layout: layout,
            shift: (x: -Int(cameraMotion.dx.rounded()), y: -Int(cameraMotion.dy.rounded())),
            stillLevel: lastMotion.stillLevel)
        return meter.measure(
            from: history.frame(age: 1).span, to: history.frame(age: 0).span,
            center: PixelPoint(x: center.x * scale, y: center.y * scale), radius: radius * scale, travel: travel)
    }

    /// Smooths the frame into the history, shrunk first `reduction` times; returns how many
    /// times it was shrunk (1 for a frame too small to shrink).
    private mutating func appendToHistory(_ luma: Span<UInt8>, layout: PlaneLayout, shrinkingBy reduction: Int) -> Int {
        switch reduction {
        case 2: reducedFrame.reduceByTwo(luma, layout: layout)
        case 4: reducedFrame.reduceByFour(luma, layout: layout)
        default:
            history.append(luma, layout: layout)
            return 1
        }
        // A span of a stored buffer borrows all of `self`: append from a buffer moved out of it.
        var reduced = ReducedFrame()
        swap(&reduced, &reducedFrame)
        defer { swap(&reduced, &reducedFrame) }
        guard let reducedLayout = reduced.layout else {
            history.append(luma, layout: layout)
            return 1
        }
        history.append(reduced.pixels.span, layout: reducedLayout)
        return reduction
    }

    /// Analyses the next frame, given as an image in memory.
    public mutating func detect(_ image: LumaImage) -> [Blob] {
        detect(luma: image.pixels.span, layout: image.layout)
    }

    /// Says that the next frame is lent from a part of the frame moved by `offset` analysed
    /// pixels (right and down) since the last one, as a region of interest that follows
    /// something does: the picture then moves the other way, as under a panning camera. The
    /// camera-motion estimate measures that shift like any other; on a picture with too little
    /// texture to measure it, the shift is taken as it is known.
    mutating func viewMoved(by offset: (x: Double, y: Double)) {
        viewMotion = CameraMotion(dx: -offset.x, dy: -offset.y)
    }

    /// Forgets the frames seen so far, as at the start of a new stream.
    public mutating func reset() {
        history.removeAll()
        lastThresholds = nil
        lastMotion = nil
        lastCameraMotion = nil
        lastCameraMotionIsClear = false
        viewMotion = .zero
        splitter.reset()
    }

    /// Whether the picture did not move since any of the frames the motion image compares.
    private var cameraIsStill: Bool {
        (1...Self.framesWithoutMotion).allSatisfy { motionSince[$0] == .zero }
    }

    /// Measures the camera's motion since each stored frame, into `motionSince`: directly against
    /// the frames the motion image compares, and by adding up the motions from frame to frame
    /// for older ones.
    ///
    /// The frame three back is measured directly too, which catches a slow drift that each
    /// frame-to-frame motion is too small to show; when neither it nor the frame before moved,
    /// the one between did not either, and is not measured.
    private mutating func measureCameraMotion(layout: PlaneLayout) {
        let current = history.frame(age: 0)
        cameraEstimator.prepare(current: current.span, layout: layout)
        guard history.contains(age: 1) else {
            // The first frame of a stream, or of a new size: nothing measured before carries
            // over, a view's move told before the restart included.
            cameraEstimator.restart()
            lastCameraMotion = nil
            lastCameraMotionIsClear = false
            viewMotion = .zero
            return
        }
        // The estimator gives exactly none for a motion that does not measurably differ from
        // it, and nil for one it cannot tell (too little texture): then the picture moved only
        // as far as the view did, if the view moved.
        let estimate = cameraEstimator.motionSincePrevious(
            current: current.span, previous: history.frame(age: 1).span, layout: layout)
        let sincePrevious = estimate?.motion ?? viewMotion
        viewMotion = .zero
        lastCameraMotion = sincePrevious
        lastCameraMotionIsClear = (estimate?.explainedMisfit ?? 0) >= Self.leastExplainedMisfit
        let position = history.cameraPosition(age: 1).followed(by: sincePrevious)
        history.setCurrentCameraPosition(position)
        motionSince[1] = sincePrevious
        for age in history.ages.dropFirst(2) {
            motionSince[age] = Self.still(chainedMotion(since: age, position: position))
        }
        let oldestCompared = Self.framesWithoutMotion
        guard history.contains(age: oldestCompared) else { return }
        motionSince[oldestCompared] = directMotion(since: oldestCompared, current: current, position: position, layout: layout)
        if motionSince[1] != .zero || motionSince[oldestCompared] != .zero {
            motionSince[2] = directMotion(since: 2, current: current, position: position, layout: layout)
        }
    }

    /// The camera's motion since the stored frame `age` back, from the frame-to-frame motions.
    private func chainedMotion(since age: Int, position: CameraMotion) -> CameraMotion {
        let earlier = history.cameraPosition(age: age)
        return CameraMotion(dx: position.dx - earlier.dx, dy: position.dy - earlier.dy)
    }

    /// The camera's motion since the stored frame `age` back, measured against it.
    private mutating func directMotion(
        since age: Int, current: [UInt8], position: CameraMotion, layout: PlaneLayout
    ) -> CameraMotion {
        let chained = chainedMotion(since: age, position: position)
        let direct = cameraEstimator.motion(
            of: current.span, since: history.frame(age: age).span, layout: layout, predicted: chained)
        return direct?.motion ?? Self.still(chained)
    }

    /// `motion`, or zero when it is within ``stillCameraTolerance`` of it.
    private static func still(_ motion: CameraMotion) -> CameraMotion {
        abs(motion.dx) >= stillCameraTolerance || abs(motion.dy) >= stillCameraTolerance ? motion : .zero
    }

    /// The difference of the current frame from the three before it, into `motion`.
    private mutating func computeMotion(layout: PlaneLayout) {
        let current = history.frame(age: 0)
        let oneBefore = history.frame(age: 1), twoBefore = history.frame(age: 2), threeBefore = history.frame(age: 3)
        if motion.count != current.count {
            motion = [UInt8](repeating: 0, count: current.count)
        }
        // A mutable span borrows all of `self`, so write into a buffer moved out of it.
        var output: [UInt8] = []
        swap(&output, &motion)
        do {
            var outputSpan = output.mutableSpan
            FrameDifferencing.minimumAbsoluteDifference(
                current: current.span, oneBefore: oneBefore.span, twoBefore: twoBefore.span,
                threeBefore: threeBefore.span, cameraMotion: (motionSince[1], motionSince[2], motionSince[3]),
                layout: layout, into: &outputSpan)
        }
        swap(&output, &motion)
    }
}
