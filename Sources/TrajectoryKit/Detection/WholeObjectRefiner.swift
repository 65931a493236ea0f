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
/// Going back through the stored frames, the part of each difference that holds the motion
/// region (the seed) grows while the old disc still overlaps the current one and stops
/// changing once it does not; two successive comparisons that agree, in total change and in
/// centre, show the object whole, and the older of the two is measured. Two stored frames at
/// least 17 frames old are always there (``SmoothedFrameHistory``), so a ball of radius r is
/// seen whole down to (2r + 3) / 17 pixels per frame (the 3 for the soft edges): 1.6 for
/// r = 12, 2.6 for r = 21. A ball slower still, nearly at rest, overlaps its old position
/// even there, and keeps its first measurement.
///
/// Only the window around each region is compared, so the cost is proportional to the moving
/// regions, not to the frame; the comparisons stop at the first agreeing pair, and one that
/// could only matter together with a next one that spills is not made.
struct WholeObjectRefiner {
    /// Regions whose window (``window(around:layout:)``) holds more pixels than this are not
    /// measured again, which bounds the cost per region. The window of a slow ball's crescent
    /// reaches that size at a radius of about 40 px, that of a 20 px ball blurred over 60 px
    /// holds 55 000 pixels; larger regions are mostly people and their limbs.
    static let largestWindowArea = 1 << 16
    /// Two comparisons agree when their total change differs by at most this fraction ...
    static let changeAgreement = 0.06
    /// ... and their centres by at most this many pixels.
    static let centreAgreement = 0.25
    /// A comparison shows the region only if its strongest part holds at least one part in
    /// this many of the region's motion.
    static let leastHeldSeed = 4
    /// Coverage weights need the object's mean change to reach this many noise sigmas: below
    /// that every pixel's weight carries more than a tenth of noise, and the motion image,
    /// which has less, measures as well.
    static let leastCoverageContrast = 10.0
    /// A still pixel's mean change between two frames, in noise sigmas: the mean of |N(0, σ)|.
    static let meanStillChange = (2 / Double.pi).squareRoot()

    /// What measuring a motion region whole found.
    enum Outcome {
        /// The object, measured whole.
        case whole(WholeObject)
        /// Nothing in the current frame: the region is the ghost of where a ball was in the
        /// three frames before, or noise.
        case ghost
        /// No stored frame shows the object whole; its first measurement should stand.
        case unresolved
    }

    /// The object measured whole, in the difference from a frame it has moved clear of.
    struct WholeObject {
        /// The moments of its part of that difference.
        var moments: RegionMoments
        /// The same part measured by coverage, soft edge included.
        var measurement: EdgeInclusiveMeasurement
    }

    private var window = ComparisonWindow()

    /// Grows this refiner's buffers to at least the size of `other`'s (see
    /// ``ComparisonWindow/reserveCapacity(matching:)``).
    mutating func reserveCapacity(matching other: WholeObjectRefiner) {
        window.reserveCapacity(matching: other.window)
    }

    /// The sizes of its buffers (for tests).
    var bufferSizes: ComparisonWindow.BufferSizes { window.bufferSizes }

    /// Measures `finder.regions[index]` whole, against the frames stored in `history`.
    ///
    /// A region that hardly differs from two successive stored frames is a ghost: pixels a
    /// ball covered in the three frames before and has left show background now, as they did
    /// before the ball came (only those touching the ball's soft edge still differ, through the
    /// ball). One such frame is not enough: a ball tossed up can fall back through the very
    /// place it rose through some frames earlier.
    ///
    /// - Parameters:
    ///   - motion: the motion image the region was found in.
    ///   - cameraMotionSince: how far the camera moved the picture since each stored frame,
    ///     indexed by the frame's age.
    ///   - thresholds: the thresholds the region was found with; the same low one traces the
    ///     object in each comparison.
    mutating func measureWhole(
        regionAt index: Int, of finder: MotionRegionFinder, motion: Span<UInt8>,
        history: SmoothedFrameHistory, cameraMotionSince: [CameraMotion], layout: PlaneLayout, thresholds: MotionThresholds
    ) -> Outcome {
        let seed = finder.regions[index]
        let rect = Self.window(around: seed.bounds, layout: layout)
        guard rect.width * rect.height <= Self.largestWindowArea else { return .unresolved }
        window.start(
            rect: rect, frameWidth: layout.width, frameHeight: layout.height, largestPart: Self.largestPart(of: seed.bounds))
        finder.forEachRun(ofRegion: index) { row, columns in
            window.addSeedRun(row: row, columns: columns, motion: motion, layout: layout)
        }
        let current = history.frame(age: 0)
        func compare(age: Int) -> ComparisonWindow.Comparison {
            window.compare(
                current: current.span, earlier: history.frame(age: age).span,
                sampling: EarlierFrameSampling(cameraMotionSince[age]), layout: layout, low: thresholds.low)
        }
        let ages = history.ages.dropFirst()
        var previous: ComparisonWindow.Part?
        var absentInARow = 0
        // A comparison made before its turn (see below). The window's labels are then those of
        // the comparison made after it, the one in turn.
        var madeAhead: (index: Int, comparison: ComparisonWindow.Comparison)?
        var index = ages.startIndex
        while index < ages.endIndex {
            let comparison: ComparisonWindow.Comparison
            let windowHoldsIt: Bool
            if let ahead = madeAhead, ahead.index == index {
                comparison = ahead.comparison
                windowHoldsIt = false
                madeAhead = nil
            } else {
                // After a spill (or at the start) nothing carries over to this comparison: it
                // can matter only with the next one, as the pair that agrees or the second of
                // two in a row showing nothing. If the next one spills, neither can happen and
                // this one need not be made. In busy scenes most comparisons spill (a leaf's
                // part of the difference joins its neighbours'), so this halves their work
                // without changing any outcome.
                if previous == nil && absentInARow == 0 {
                    guard index + 1 < ages.endIndex else { return .unresolved }
                    let next = compare(age: ages[index + 1])
                    if case .spills = next {
                        index += 2
                        continue
                    }
                    madeAhead = (index + 1, next)
                }
                comparison = compare(age: ages[index])
                windowHoldsIt = true
            }
            guard case .part(var part) = comparison, part.seedWeight * Self.leastHeldSeed >= window.seedWeight else {
                if case .spills = comparison {
                    absentInARow = 0
                } else {
                    absentInARow += 1
                    if absentInARow == 2 { return .ghost }
                }
                previous = nil
                index += 1
                continue
            }
            absentInARow = 0
            if let previous, Self.agree(previous, part) {
                let earlier = history.frame(age: ages[index])
                if !windowHoldsIt {
                    // The comparison before this one was made after it and relabelled the
                    // window: make it again (the same part, under a new label) to measure it.
                    guard case .part(let again) = compare(age: ages[index]) else {
                        preconditionFailure("the same comparison made twice shows the same part")
                    }
                    part = again
                }
                guard let whole = measure(part, current: current.span, earlier: earlier.span, layout: layout, thresholds: thresholds)
                else { return .unresolved }
                return .whole(whole)
            }
            previous = part
            index += 1
        }
        return .unresolved
    }

    /// Measures the whole object, `part` of the comparison of the current frame with `earlier`:
    /// by coverage (``ComparisonWindow/measureByCoverage(_:moments:current:earlier:layout:low:)``)
    /// when it stands well clear of the noise, else by its change
    /// (``ComparisonWindow/measureByChange(_:moments:current:earlier:layout:low:noiseLevel:)``),
    /// which for a faint ball is still far closer than the crescent the motion image shows of it.
    /// Nil when neither can be measured.
    private func measure(
        _ part: ComparisonWindow.Part, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout,
        thresholds: MotionThresholds
    ) -> WholeObject? {
        let contrast = Double(part.totalChange) / Double(part.area)
        let moments = window.moments(of: part, current: current, earlier: earlier, layout: layout)
        let measurement =
            contrast >= Self.leastCoverageContrast * thresholds.noiseSigma
            ? window.measureByCoverage(
                part, moments: moments, current: current, earlier: earlier, layout: layout, low: thresholds.low)
            : window.measureByChange(
                part, moments: moments, current: current, earlier: earlier, layout: layout, low: thresholds.low,
                noiseLevel: Self.meanStillChange * thresholds.noiseSigma)
        return measurement.map { WholeObject(moments: moments, measurement: $0) }
    }

    /// The window a seed is compared over: its bounds grown on every side by their longer side
    /// and by room for the soft edge. The seed may be no more than the thin leading crescent of
    /// a ball moving a pixel or two a frame, whose chord is about the ball's diameter: the whole
    /// ball, which lies behind it, then fits.
    private static func window(around bounds: PixelRect, layout: PlaneLayout) -> PixelRect {
        let grow = max(bounds.width, bounds.height) + 2 * EdgeInclusiveMeasurement.margin
        return PixelRect(
            minX: max(0, bounds.minX - grow), minY: max(0, bounds.minY - grow),
            maxX: min(layout.width, bounds.maxX + grow), maxY: min(layout.height, bounds.maxY + grow))
    }

    /// The most pixels a part of a comparison can hold and still be the object whole: the
    /// square on the seed's longer side and its soft edges, which holds the whole disc of a ball
    /// whose crescent, or the whole streak of a ball whose leading part, the seed is. Larger
    /// parts are the object joined to its old outline or to something else, and are not traced
    /// to the end.
    private static func largestPart(of bounds: PixelRect) -> Int {
        let side = max(bounds.width, bounds.height) + 2 * EdgeInclusiveMeasurement.margin
        return side * side
    }

    /// Whether two comparisons show the same object: the same total change and the same centre.
    private static func agree(_ a: ComparisonWindow.Part, _ b: ComparisonWindow.Part) -> Bool {
        let weightA = Double(a.totalChange), weightB = Double(b.totalChange)
        let centreA = a.center, centreB = b.center
        let dx = centreA.x - centreB.x, dy = centreA.y - centreB.y
        return abs(weightA - weightB) <= changeAgreement * max(weightA, weightB)
            && dx * dx + dy * dy <= centreAgreement * centreAgreement
    }
}
