/// Finds small moving objects, candidate balls, in a stream of luma frames.
///
/// Feed it every analysed frame in order. For each frame it
/// 1. smooths the frame into its own history (``BinomialSmoother``),
/// 2. takes the smallest difference between it and each of the three frames before it
///    (``FrameDifferencing``), which marks where the object is *now*,
/// 3. estimates the frame's noise from that difference and sets a low and a high threshold
///    from it (``MotionThresholds``),
/// 4. joins pixels above the low threshold into regions, keeping those that reach the high
///    one somewhere,
/// 5. measures each region as a ``Blob``, where possible whole, in its difference from an
///    earlier frame (up to 32 back) that the object has moved clear of, since a ball moving
///    less than its diameter per frame shows only part of itself in the motion image, and
///    each pixel weighted by how much of it the object covers, which the background's texture
///    does not sway; regions that are only the ghost of where a ball was are dropped
///    (``WholeObjectRefiner``); and
/// 6. keeps the blobs that pass the configured area, radius and region-of-interest filters
///    (dropping, too, the small pieces that lie on an object too large for the maximum radius).
///
/// A detector holds the history of one stream (eleven smoothed frames: about 10 MB at 720p,
/// 23 MB at 1080p): use one per stream, and do not share one between threads. After the first
/// frame of a given size it allocates nothing, except when the caller keeps the array a call
/// returned past the next call, or a frame brings larger moving regions than any before.
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
    private var refiner = WholeObjectRefiner()
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
        // The motion image compares the current frame with the three before it.
        guard history.contains(age: 3), let historyLayout = history.layout else { return blobs }

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
        for (index, region) in regionFinder.regions.enumerated() where region.area >= configuration.minimumArea {
            switch refiner.measureWhole(
                regionAt: index, of: regionFinder, motion: motionPlane.span, history: history, layout: historyLayout,
                thresholds: thresholds)
            {
            case .whole(let whole):
                selection.add(
                    Blob(measuring: whole.moments, remeasured: whole.measurement), region: whole.moments,
                    isWhole: true, configuration: configuration, frameWidth: layout.width)
            case .unresolved:
                let remeasured = EdgeInclusiveMeasurement(
                    region: region, motion: motionPlane.span, layout: historyLayout, noiseLevel: stillPixelChange)
                selection.add(
                    Blob(measuring: region, remeasured: remeasured), region: region, isWhole: false,
                    configuration: configuration, frameWidth: layout.width)
            case .ghost:
                continue
            }
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
                threeBefore: threeBefore.span, layout: layout, into: &outputSpan)
        }
        swap(&output, &motion)
    }
}
