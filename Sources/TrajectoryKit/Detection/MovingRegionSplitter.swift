/// Looks inside a large moving region, such as a person walking, for a small object that moves
/// on its own in front of it: a ball whose motion merged with the person's into one region.
///
/// A walker moves, frame to frame, mostly as one piece. The splitter finds that motion, a
/// whole-pixel translation from each of the three frames the motion image compares, by block
/// matching the region's moving pixels. A moving pixel that the translation explains from any
/// of those frames (its value now matches the earlier frame's where the region's motion puts
/// it) is taken as moving with the region. What is left moves unlike the region: a swinging
/// hand, or a ball. The pieces of what is left that are round, solid and small against the
/// region are returned as extra blobs.
///
/// A piece counts only where the frame before had a blob or a piece of about its size close
/// by, within `persistenceReach` of its radii: a ball moves a few radii a frame, while the
/// pieces of a walker's limbs that the translation leaves come and go.
///
/// Only for a still camera: the caller skips it otherwise. All its buffers are kept between
/// frames, so after the largest region so far it allocates nothing.
struct MovingRegionSplitter {
    /// Regions of fewer moving pixels are not split: a ball's own region is smaller.
    static let leastArea = 2000
    /// Regions whose radius is under this fraction of the frame's width are not split.
    static let leastNormalizedRadius = 0.011
    /// The largest translation per frame searched for, in pixels, in each direction.
    static let searchPerFrame = 8
    /// The frames two and three back are searched this far around the translation from the
    /// frame one later, scaled to their age.
    static let refineRange = 1
    /// Block matching reads every second row and column of the region, or sparser ones so that
    /// about this many of its moving pixels are read: a walker's texture pins its translation
    /// down with far fewer than a large region holds.
    static let targetSampleCount = 400
    /// Fewer sampled moving pixels than this leave the translation unknown.
    static let leastSampleCount = 50
    /// What is left must reach this many times the frame's low threshold (at most the high one):
    /// the translation explains a walker's pixels only to within a few grey levels of texture.
    static let leftoverThresholdFactor = 2.5
    /// Limits on a piece: it is round, solid, at least this radius in pixels, and at most this
    /// fraction of the region's radius.
    static let largestPieceElongation = 2.0
    static let leastPieceSolidity = 0.6
    static let smallestPieceRadius = 2.0
    static let largestPieceRadiusFraction = 0.5
    /// How far a blob or piece of the frame before may lie from a piece, in the piece's radii
    /// (at least 2 px), for the piece to count; and how much larger than the piece it may be.
    static let persistenceReach = 3.0
    static let persistenceLargestSizeRatio = 3.0
    /// Pixels around the region's bounding box that the leftover image covers.
    private static let margin = 4

    /// A moving pixel the block matching reads: where it is (and its index in the frame) and
    /// its value now.
    private struct Sample {
        var x: Int
        var y: Int
        var index: Int
        var value: Int
    }

    /// A shift and its sum of absolute differences.
    private struct Match {
        var dx: Int
        var dy: Int
        var sum: Int

        /// A smaller sum, or the same sum with a smaller shift.
        func isBetter(than other: Match) -> Bool {
            sum < other.sum || (sum == other.sum && dx * dx + dy * dy < other.dx * other.dx + other.dy * other.dy)
        }
    }

    private struct Translation {
        var dx: Int
        var dy: Int
        var age: Int
    }

    private var samples: [Sample] = []
    private var translations: [Translation] = []
    private var leftover: [UInt8] = []
    private var finder = MotionRegionFinder()
    /// The pieces of the current frame's regions that count, in analysed pixels.
    private(set) var pieces: [Blob] = []
    /// Where the blobs and all pieces (counting or not) of the frame before and of this one
    /// are: centre and radius, for the persistence rule.
    private var earlierSightings: [(center: PixelPoint, radius: Double)] = []
    private var sightings: [(center: PixelPoint, radius: Double)] = []

    /// Starts a new frame: this frame's pieces are forgotten, the last frame's sightings kept
    /// for the persistence rule.
    mutating func startFrame() {
        pieces.removeAll(keepingCapacity: true)
        swap(&earlierSightings, &sightings)
        sightings.removeAll(keepingCapacity: true)
        // The two lists take turns, so each would first meet a frame's largest count on its own
        // turn; grown together, neither allocates for a count the other has already held.
        sightings.reserveCapacity(earlierSightings.capacity)
    }

    /// How many sightings each of the two lists has room for (for tests).
    var sightingCapacities: (current: Int, earlier: Int) { (sightings.capacity, earlierSightings.capacity) }

    /// Forgets every frame seen, as at the start of a stream.
    mutating func reset() {
        pieces.removeAll(keepingCapacity: true)
        earlierSightings.removeAll(keepingCapacity: true)
        sightings.removeAll(keepingCapacity: true)
    }

    /// Records the frame's selected blobs, in analysed pixels, for the next frame's persistence rule.
    mutating func noteBlobs(_ blobs: [Blob]) {
        for blob in blobs { sightings.append((blob.center, blob.radius)) }
    }

    /// Whether `region` is large enough to be worth splitting.
    static func isCandidate(_ region: RegionMoments, radius: Double, frameWidth: Int) -> Bool {
        region.area >= leastArea && radius >= leastNormalizedRadius * Double(frameWidth)
    }

    /// Looks for pieces moving on their own in `region` (of radius `regionRadius`), appending
    /// those that count to ``pieces``.
    ///
    /// - Parameters:
    ///   - motion: the frame's motion image, in which `region` was found.
    ///   - noiseLevel: the mean change of a still pixel, for measuring the pieces.
    ///   - minimumArea: pieces of fewer pixels are skipped.
    mutating func split(
        _ region: RegionMoments, regionRadius: Double, motion: Span<UInt8>, history: SmoothedFrameHistory,
        layout: PlaneLayout, thresholds: MotionThresholds, noiseLevel: Double, minimumArea: Int
    ) {
        let window = PixelRect(
            minX: max(0, region.bounds.minX - Self.margin), minY: max(0, region.bounds.minY - Self.margin),
            maxX: min(layout.width, region.bounds.maxX + Self.margin),
            maxY: min(layout.height, region.bounds.maxY + Self.margin))
        guard
            findTranslations(
                in: window, movingArea: region.area, motion: motion, history: history, layout: layout,
                low: thresholds.low)
        else { return }
        let windowLayout = computeLeftover(
            in: window, motion: motion, history: history, layout: layout, low: thresholds.low)
        var leftoverThresholds = thresholds
        leftoverThresholds.low = UInt8(
            min(Double(thresholds.high), (Double(thresholds.low) * Self.leftoverThresholdFactor).rounded()))
        // A span of a stored array borrows all of `self`: read the leftover through a local.
        let leftoverPlane = leftover
        finder.findRegions(in: leftoverPlane.span, layout: windowLayout, thresholds: leftoverThresholds)
        for piece in finder.regions where piece.area >= minimumArea {
            let remeasured = EdgeInclusiveMeasurement(
                region: piece, motion: leftoverPlane.span, layout: windowLayout, noiseLevel: noiseLevel)
            var blob = Blob(measuring: piece, remeasured: remeasured)
            guard blob.radius >= Self.smallestPieceRadius,
                blob.radius <= Self.largestPieceRadiusFraction * regionRadius,
                blob.elongation <= Self.largestPieceElongation, blob.solidity >= Self.leastPieceSolidity
            else { continue }
            blob.center = PixelPoint(x: blob.center.x + Double(window.minX), y: blob.center.y + Double(window.minY))
            let persists = wasSeenNear(blob)
            sightings.append((blob.center, blob.radius))
            if persists { pieces.append(blob) }
        }
    }

    private func wasSeenNear(_ piece: Blob) -> Bool {
        let size = max(piece.radius, 2)
        let reach = Self.persistenceReach * size
        return earlierSightings.contains { earlier in
            let dx = earlier.center.x - piece.center.x, dy = earlier.center.y - piece.center.y
            return earlier.radius <= Self.persistenceLargestSizeRatio * size && dx * dx + dy * dy <= reach * reach
        }
    }

    /// Finds the region's translation from each of the frames one to three back, into
    /// `translations`; false when it cannot be found or is none (the region is not moving as
    /// one piece, or not at all).
    private mutating func findTranslations(
        in window: PixelRect, movingArea: Int, motion: Span<UInt8>, history: SmoothedFrameHistory,
        layout: PlaneLayout, low: UInt8
    ) -> Bool {
        let current = history.frame(age: 0)
        samples.removeAll(keepingCapacity: true)
        let sampleStep = max(2, Int((Double(movingArea) / Double(Self.targetSampleCount)).squareRoot()))
        for y in stride(from: window.minY, to: window.maxY, by: sampleStep) {
            let rowStart = y * layout.bytesPerRow
            for x in stride(from: window.minX, to: window.maxX, by: sampleStep) where motion[rowStart + x] >= low {
                samples.append(Sample(x: x, y: y, index: rowStart + x, value: Int(current[rowStart + x])))
            }
        }
        guard samples.count >= Self.leastSampleCount else { return false }
        // The smallest rectangle holding every sample (`maxX`, `maxY` inclusive).
        var bounds = PixelRect(minX: .max, minY: .max, maxX: .min, maxY: .min)
        for sample in samples {
            bounds.minX = min(bounds.minX, sample.x)
            bounds.maxX = max(bounds.maxX, sample.x)
            bounds.minY = min(bounds.minY, sample.y)
            bounds.maxY = max(bounds.maxY, sample.y)
        }
        translations.removeAll(keepingCapacity: true)
        for age in 1...3 {
            let earlier = history.frame(age: age)
            let match: (dx: Int, dy: Int, beatsNoShift: Bool)
            if let last = translations.last {
                // The translation from one frame further back, scaled to this age: it is off by
                // at most a pixel at constant speed (each was rounded to a whole pixel).
                let guess = (
                    dx: Int((Double(last.dx * age) / Double(last.age)).rounded()),
                    dy: Int((Double(last.dy * age) / Double(last.age)).rounded()))
                match = bestShift(
                    from: earlier, around: guess, within: Self.refineRange, samplesIn: bounds, layout: layout)
            } else {
                // Every second shift first, on a quarter of the samples, then the best one's neighbours.
                let coarse = bestShift(
                    from: earlier, around: (0, 0), within: Self.searchPerFrame, step: 2, sampleStep: 4,
                    samplesIn: bounds, layout: layout)
                match = bestShift(
                    from: earlier, around: (coarse.dx, coarse.dy), within: 1, samplesIn: bounds, layout: layout)
            }
            guard match.beatsNoShift, match.dx != 0 || match.dy != 0 else { return false }
            translations.append(Translation(dx: match.dx, dy: match.dy, age: age))
        }
        return true
    }

    /// The shift within `range` of `center` (every `step`-th) that best maps `earlier` onto the
    /// samples (every `sampleStep`-th, all within `bounds`), by the sum of absolute differences;
    /// the smaller shift on a tie. `beatsNoShift` says whether it fits at least as well as no shift at all.
    private func bestShift(
        from earlier: [UInt8], around center: (dx: Int, dy: Int), within range: Int, step: Int = 1,
        sampleStep: Int = 1, samplesIn bounds: PixelRect, layout: PlaneLayout
    ) -> (dx: Int, dy: Int, beatsNoShift: Bool) {
        // Only shifts that fit at least as well as none matter, so no shift's sum needs adding
        // up past that; the centre, usually the best or close to it, tightens the bound first.
        let unshifted = Self.difference(
            samples, within: bounds, every: sampleStep, from: earlier, shiftedBy: (0, 0), layout: layout)
        var best: Match? = nil
        func consider(dx: Int, dy: Int) {
            let limit = best?.sum ?? unshifted
            let sum = Self.difference(
                samples, within: bounds, every: sampleStep, from: earlier, shiftedBy: (dx, dy), layout: layout,
                stoppingAbove: limit)
            let candidate = Match(dx: dx, dy: dy, sum: sum)
            if sum <= limit, best.map({ candidate.isBetter(than: $0) }) ?? true { best = candidate }
        }
        consider(dx: center.dx, dy: center.dy)
        for dy in stride(from: center.dy - range, through: center.dy + range, by: step) {
            for dx in stride(from: center.dx - range, through: center.dx + range, by: step)
            where dx != center.dx || dy != center.dy {
                consider(dx: dx, dy: dy)
            }
        }
        guard let best else { return (0, 0, false) }
        return (best.dx, best.dy, true)
    }

    /// The sum of absolute differences between every `step`-th sample and `earlier` read
    /// `shift` back from it, or some sum above `limit` once it passes it. A sample shifted out
    /// of the frame (a walker near its edge) is read at the nearest edge pixel.
    private static func difference(
        _ samples: [Sample], within bounds: PixelRect, every step: Int, from earlier: [UInt8],
        shiftedBy shift: (dx: Int, dy: Int), layout: PlaneLayout, stoppingAbove limit: Int = .max
    ) -> Int {
        var sum = 0
        if bounds.minX - shift.dx >= 0, bounds.maxX - shift.dx < layout.width,
            bounds.minY - shift.dy >= 0, bounds.maxY - shift.dy < layout.height
        {
            // Every sample lands inside the frame: no clamping needed, the shift is one offset.
            let offset = shift.dy * layout.bytesPerRow + shift.dx
            for index in stride(from: 0, to: samples.count, by: step) {
                let sample = samples[index]
                let difference = sample.value &- Int(earlier[sample.index &- offset])
                sum &+= difference < 0 ? 0 &- difference : difference
                if sum > limit { break }
            }
            return sum
        }
        for index in stride(from: 0, to: samples.count, by: step) {
            let sample = samples[index]
            let x = min(max(sample.x - shift.dx, 0), layout.width - 1)
            let y = min(max(sample.y - shift.dy, 0), layout.height - 1)
            sum += abs(sample.value - Int(earlier[y * layout.bytesPerRow + x]))
            if sum > limit { break }
        }
        return sum
    }

    /// Writes into `leftover` the motion of the window's pixels that the region's translations
    /// do not explain, and returns the leftover image's layout (the window's, with rows padded
    /// to whole vectors).
    private mutating func computeLeftover(
        in window: PixelRect, motion: Span<UInt8>, history: SmoothedFrameHistory, layout: PlaneLayout, low: UInt8
    ) -> PlaneLayout {
        let width = window.maxX - window.minX, height = window.maxY - window.minY
        let windowLayout = PlaneLayout(width: width, height: height, bytesPerRow: (width + 15) & ~15)
        let count = windowLayout.bytesPerRow * height
        if leftover.count < count { leftover = [UInt8](repeating: 0, count: count) }
        for index in 0..<count { leftover[index] = 0 }
        let current = history.frame(age: 0)
        let earlier = (history.frame(age: 1), history.frame(age: 2), history.frame(age: 3))
        let shifts = (translations[0], translations[1], translations[2])
        for y in window.minY..<window.maxY {
            let rowStart = y * layout.bytesPerRow
            let leftoverRow = (y - window.minY) * windowLayout.bytesPerRow - window.minX
            for x in window.minX..<window.maxX where motion[rowStart + x] >= low {
                let value = Int(current[rowStart + x])
                var change = Int(motion[rowStart + x])
                func explain(_ shift: Translation, _ frame: [UInt8]) {
                    let sx = x - shift.dx, sy = y - shift.dy
                    guard sx >= 0, sx < layout.width, sy >= 0, sy < layout.height else { return }
                    change = min(change, abs(value - Int(frame[sy * layout.bytesPerRow + sx])))
                }
                explain(shifts.0, earlier.0)
                explain(shifts.1, earlier.1)
                explain(shifts.2, earlier.2)
                leftover[leftoverRow + x] = UInt8(change)
            }
        }
        return windowLayout
    }
}
