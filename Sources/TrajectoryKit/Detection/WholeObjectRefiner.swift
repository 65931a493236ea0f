/// Measures a moving region again, whole, against an earlier frame the object has moved clear of.
///
/// The motion image compares the current frame with the three before it, so where a ball
/// moves less than its diameter per frame it shows only the ball's leading crescent (the rest
/// of the ball covered the same pixels a frame earlier), together with a ghost behind it
/// (pixels the ball covered in all three earlier frames but no longer): the centre measured
/// from that lags or leads the ball by up to a quarter of its diameter.
///
/// An earlier frame in which the ball was clear of where it is now shows it whole: the
/// difference from that frame holds the ball's current disc and, apart from it, its old one.
/// Going back one frame at a time, the part of each difference that holds the motion region
/// (the seed) grows while the old disc still overlaps the current one and stops changing once
/// it does not; two consecutive comparisons that agree, in total change and in centre, show the
/// object whole, and the later of the two is measured. The history reaches 32 frames back
/// (``SmoothedFrameHistory``), so a ball of radius r is seen whole down to about (2r + 3) / 24
/// pixels per frame, 1.1 for r = 12; a ball slower still, nearly at rest, still overlaps its
/// old position in the oldest stored frame, and keeps its first measurement.
///
/// Only the window around each region is compared, so the cost is proportional to the moving
/// regions, not to the frame; the comparisons stop at the first agreeing pair.
struct WholeObjectRefiner {
    /// Regions of more pixels than this are not measured again: a ball seen that large
    /// moves many pixels per frame, and large regions are mostly people and their limbs.
    static let largestRefinedArea = 8192
    /// Two comparisons agree when their total change differs by at most this fraction ...
    static let changeAgreement = 0.06
    /// ... and their centres by at most this many pixels.
    static let centreAgreement = 0.25
    /// Coverage weights need the object's mean change to reach this many noise sigmas: below
    /// that every pixel's weight carries more than a tenth of noise, and the motion image,
    /// which has less, measures as well.
    static let leastCoverageContrast = 10.0

    /// The object measured whole, in the difference from a frame it has moved clear of.
    struct WholeObject {
        /// The moments of its part of that difference.
        var moments: RegionMoments
        /// The same part measured by coverage, soft edge included.
        var measurement: EdgeInclusiveMeasurement
    }

    private var window = ComparisonWindow()

    /// Measures `finder.regions[index]` whole, or returns nil when no earlier frame stored in
    /// `history` shows it whole (then its first measurement should stand).
    ///
    /// - Parameters:
    ///   - motion: the motion image the region was found in.
    ///   - thresholds: the thresholds the region was found with; the same low one traces the
    ///     object in each comparison.
    mutating func measureWhole(
        regionAt index: Int, of finder: MotionRegionFinder, motion: Span<UInt8>,
        history: SmoothedFrameHistory, layout: PlaneLayout, thresholds: MotionThresholds
    ) -> WholeObject? {
        let seed = finder.regions[index]
        guard seed.area <= Self.largestRefinedArea else { return nil }
        window.start(rect: Self.window(around: seed.bounds, layout: layout))
        finder.forEachRun(ofRegion: index) { row, columns in
            window.addSeedRun(row: row, columns: columns, motion: motion, layout: layout)
        }
        let current = history.frame(age: 0)
        var previous: ComparisonWindow.Part?
        for age in history.ages.dropFirst() {
            let earlier = history.frame(age: age)
            guard
                let part = window.strongestSeededPart(
                    current: current.span, earlier: earlier.span, layout: layout, low: thresholds.low)
            else { return nil }  // not there in this comparison: noise, or a ghost
            guard fitsWindow(part, layout: layout) else {
                // Joined to something reaching past the window: the old outline, or a larger object.
                previous = nil
                continue
            }
            if let previous, Self.agree(previous, part) {
                return measure(part, current: current.span, earlier: earlier.span, layout: layout, thresholds: thresholds)
            }
            previous = part
        }
        return nil
    }

    /// Measures the whole object, `part` of the comparison of the current frame with `earlier`,
    /// by coverage (``ComparisonWindow/measureByCoverage(_:current:earlier:layout:low:)``), or
    /// returns nil when the object does not stand clear enough of the noise for that.
    ///
    /// A faint ball's motion region is measured in an image of less noise (the least of three
    /// differences), and better so, even where the ball overlaps its earlier position a little.
    private func measure(
        _ part: ComparisonWindow.Part, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout,
        thresholds: MotionThresholds
    ) -> WholeObject? {
        let contrast = part.moments.change.weight / Double(part.moments.area)
        guard contrast >= Self.leastCoverageContrast * thresholds.noiseSigma,
            let measurement = window.measureByCoverage(part, current: current, earlier: earlier, layout: layout, low: thresholds.low)
        else { return nil }
        return WholeObject(moments: part.moments, measurement: measurement)
    }

    /// The window a seed is compared over: its bounds grown on every side by half their longer
    /// side (the seed is at least the object's leading half, so the whole object fits) and by
    /// room for the soft edge.
    private static func window(around bounds: PixelRect, layout: PlaneLayout) -> PixelRect {
        let grow = max(bounds.width, bounds.height) / 2 + 2 * EdgeInclusiveMeasurement.margin
        return PixelRect(
            minX: max(0, bounds.minX - grow), minY: max(0, bounds.minY - grow),
            maxX: min(layout.width, bounds.maxX + grow), maxY: min(layout.height, bounds.maxY + grow))
    }

    /// Whether `part` and its soft edge lie inside the window, or reach past it only where the
    /// window meets the frame's edge.
    private func fitsWindow(_ part: ComparisonWindow.Part, layout: PlaneLayout) -> Bool {
        let frame = PixelRect(minX: 0, minY: 0, maxX: layout.width, maxY: layout.height)
        let needed = EdgeInclusiveMeasurement.window(around: part.moments.bounds, within: frame)
        let rect = window.rect
        return needed.minX >= rect.minX && needed.minY >= rect.minY && needed.maxX <= rect.maxX && needed.maxY <= rect.maxY
    }

    /// Whether two comparisons show the same object: the same total change and the same centre.
    private static func agree(_ a: ComparisonWindow.Part, _ b: ComparisonWindow.Part) -> Bool {
        let weightA = a.moments.change.weight, weightB = b.moments.change.weight
        let centreA = a.moments.change.mean, centreB = b.moments.change.mean
        let dx = centreA.x - centreB.x, dy = centreA.y - centreB.y
        return abs(weightA - weightB) <= changeAgreement * max(weightA, weightB)
            && dx * dx + dy * dy <= centreAgreement * centreAgreement
    }
}
