/// Finds small moving objects, candidate balls, in a stream of luma frames.
///
/// Feed it every analysed frame in order. For each frame it
/// 1. smooths the frame into its own history (``BinomialSmoother``),
/// 2. takes the smallest difference between it and each of the three frames before it
///    (``FrameDifferencing``), which marks where the object is *now*,
/// 3. estimates the frame's noise from that difference and sets a low and a high threshold
///    from it (``MotionThresholds``),
/// 4. joins pixels above the low threshold into regions, keeping those that reach the high
///    one somewhere, and
/// 5. measures each region as a ``Blob`` and keeps the blobs that pass the configured
///    area, radius and region-of-interest filters (dropping, too, the small pieces that
///    lie on an object too large for the maximum radius).
///
/// A detector holds the history of one stream: use one per stream (it is cheap), and do not
/// share one between threads. After the first frame of a given size it allocates nothing,
/// except when the caller keeps the array a call returned past the next call.
public struct BlobDetector {
    /// The settings every later frame is analysed with.
    public var configuration: Configuration {
        didSet { configuration.validate() }
    }
    /// The thresholds applied to the last analysed frame; nil until four frames have been seen.
    public private(set) var lastThresholds: MotionThresholds?

    private var history = SmoothedFrameHistory()
    private var motion: [UInt8] = []
    private var noiseEstimator = MotionNoiseEstimator()
    private var regionFinder = MotionRegionFinder()
    private var selection = BlobSelection()
    private var blobs: [Blob] = []

    public init(configuration: Configuration = .init()) {
        configuration.validate()
        self.configuration = configuration
    }

    /// Analyses the next frame of the stream and returns the moving blobs found in it.
    ///
    /// Returns no blobs until four frames have been seen (after ``reset()``, or after the
    /// frame size changed, which resets the history by itself). Blob coordinates are pixels of
    /// the full frame, top-left origin. The plane is only read during the call.
    public mutating func detect(luma: Span<UInt8>, layout: PlaneLayout) -> [Blob] {
        precondition(luma.count >= layout.minimumByteCount, "the plane must hold \(layout.minimumByteCount) bytes")
        blobs.removeAll(keepingCapacity: true)
        lastThresholds = nil
        history.append(luma, layout: layout)
        guard history.isFull, let historyLayout = history.layout else { return blobs }

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
        selection.removeAll()
        for region in regionFinder.regions where region.area >= configuration.minimumArea {
            let remeasured = EdgeInclusiveMeasurement(
                region: region, motion: motionPlane.span, layout: historyLayout, noiseLevel: stillPixelChange)
            selection.add(
                Blob(measuring: region, remeasured: remeasured), region: region, configuration: configuration,
                frameWidth: layout.width)
        }
        selection.select(into: &blobs, configuration: configuration, frameWidth: layout.width, frameHeight: layout.height)
        return blobs
    }

    /// Analyses the next frame, given as an image in memory.
    public mutating func detect(_ image: LumaImage) -> [Blob] {
        detect(luma: image.pixels.span, layout: image.layout)
    }

    /// Forgets the frames seen so far, as at the start of a new stream.
    public mutating func reset() {
        history.removeAll()
        lastThresholds = nil
    }

    /// The difference of the current frame from the three before it, into `motion`.
    private mutating func computeMotion(layout: PlaneLayout) {
        if motion.count != history.current.count {
            motion = [UInt8](repeating: 0, count: history.current.count)
        }
        // A mutable span borrows all of `self`, so write into a buffer moved out of it.
        var output: [UInt8] = []
        swap(&output, &motion)
        do {
            var outputSpan = output.mutableSpan
            FrameDifferencing.minimumAbsoluteDifference(
                current: history.current.span, oneBefore: history.oneBefore.span,
                twoBefore: history.twoBefore.span, threeBefore: history.threeBefore.span,
                layout: layout, into: &outputSpan)
        }
        swap(&output, &motion)
    }
}
