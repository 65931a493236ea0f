/// The current frame compared with one earlier frame over a small window around a moving
/// region: the connected parts of their absolute difference that hold the region's pixels
/// (the seed).
///
/// Where the object has moved clear of where it was in the earlier frame, the difference shows
/// its whole current outline as one part and its old outline as another; the part holding the
/// seed is the object now. The difference is taken only at the pixels a trace visits, so the
/// work is proportional to the parts the seed touches, and a trace stops as soon as its part
/// reaches the window's edge. Buffers are kept between uses: once the largest window so far
/// has been seen, nothing more is allocated.
struct ComparisonWindow {
    /// Pixels of known coverage an object needs for its grey level to be found. Objects are
    /// measured by coverage only when they stand well clear of the noise
    /// (``WholeObjectRefiner/leastCoverageContrast``), so a few place it to a few percent of
    /// the contrast, and a ball of radius 3 px has little more than that in its middle.
    static let leastMiddlePixels = 4

    /// One connected part of the difference, at or above the low threshold, that holds seed
    /// pixels: the sums gathered while it is traced, which are enough to compare parts.
    /// (``moments(of:current:earlier:layout:)`` measures it in full.)
    struct Part {
        /// Its label in the window, for this comparison.
        var label: UInt32
        /// The window's top-left pixel, in frame coordinates.
        var origin: (x: Int, y: Int)
        /// Pixels in it.
        var area = 0
        /// Its total change, and the change-weighted sums of its pixels' columns and rows
        /// (window coordinates).
        var totalChange = 0
        var changeWeightedX = 0, changeWeightedY = 0
        /// The smallest rectangle of whole pixels holding it, frame coordinates.
        var bounds: PixelRect
        /// Total motion value of the seed pixels it holds.
        var seedWeight = 0

        /// A part with no pixels yet, whose bounds start as pixel (`x`, `y`) of the window.
        fileprivate init(label: UInt32, origin: (x: Int, y: Int), x: Int, y: Int) {
            self.label = label
            self.origin = origin
            bounds = PixelRect(minX: origin.x + x, minY: origin.y + y, maxX: origin.x + x + 1, maxY: origin.y + y + 1)
        }

        /// Its change-weighted centre, frame coordinates.
        var center: PixelPoint {
            PixelPoint(
                x: Double(origin.x) + 0.5 + Double(changeWeightedX) / Double(totalChange),
                y: Double(origin.y) + 0.5 + Double(changeWeightedY) / Double(totalChange))
        }

        /// Adds pixel (`x`, `y`) of the window to the sums; its bounds grow by whole runs
        /// (``include(_:)``).
        @inline(__always)
        fileprivate mutating func add(x: Int, y: Int, change: UInt8, seedMotion: UInt8) {
            area += 1
            totalChange += Int(change)
            changeWeightedX += Int(change) * x
            changeWeightedY += Int(change) * y
            seedWeight += Int(seedMotion)
        }

        /// Grows the bounds to hold `run`.
        fileprivate mutating func include(_ run: WindowRun) {
            bounds = PixelRect(
                minX: min(bounds.minX, origin.x + run.minX), minY: min(bounds.minY, origin.y + run.y),
                maxX: max(bounds.maxX, origin.x + run.maxX), maxY: max(bounds.maxY, origin.y + run.y + 1))
        }
    }

    /// What one comparison shows of the seed.
    enum Comparison {
        /// No seed pixel differs from the earlier frame by the low threshold.
        case absent
        /// A part holding seed pixels reaches the window's edge, away from the frame's, or grows
        /// beyond the largest part: it is joined to something larger than the object (its old
        /// outline, or an arm).
        case spills
        /// The parts holding seed pixels all lie inside the window; this one holds the most
        /// seed motion.
        case part(Part)
    }

    /// The compared pixels, in frame coordinates.
    private(set) var rect = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    /// The window a part and its soft edge must lie in (window coordinates): the window less
    /// a soft edge's width, except along the frame's edge.
    private var inside = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    /// For each pixel of `rect`, its motion value if it belongs to the seed, else 0. Only the
    /// seed's entries are ever set, and they are cleared again before the next window, so the
    /// cost of a window is that of its seed, not of its area.
    private var seedMotion: [UInt8] = []
    /// The seed's pixels, as indices into the window.
    private var seedPixels: [Int] = []
    /// Total motion value of the seed's pixels.
    private(set) var seedWeight = 0
    /// For each pixel of the window, the label of the part that holds it. Labels only grow,
    /// so those below `firstLabel` belong to earlier comparisons and need never be cleared.
    private var labels: [UInt32] = []
    /// The first label of the current comparison, which marks the pixels found below the low
    /// threshold in it, so that a trace looks at each pixel's change once rather than once for
    /// every traced neighbour (eight times over on a part's edge).
    private var firstLabel: UInt32 = 1
    /// The label the next traced part gets.
    private var nextLabel: UInt32 = 1
    /// Runs of a part whose neighbouring rows are still to be read while it is traced.
    private var pendingRuns: [WindowRun] = []
    /// Parts larger than this spill (see ``start(rect:frameWidth:frameHeight:largestPart:)``).
    private var largestPart = Int.max
    /// Where the earlier frame of the current comparison is read, for the camera's motion since it.
    private var sampling = EarlierFrameSampling(.zero)

    /// Sets the window, with no seed yet.
    ///
    /// - Parameters:
    ///   - frameWidth: the frame's width, at whose edge a part may end.
    ///   - frameHeight: the frame's height, likewise.
    ///   - largestPart: a part of more pixels than this is taken to spill, as one that reaches
    ///     the window's edge: it is larger than any object the seed can be part of, and tracing
    ///     it further would only cost time.
    mutating func start(rect: PixelRect, frameWidth: Int, frameHeight: Int, largestPart: Int) {
        self.rect = rect
        self.largestPart = largestPart
        let margin = EdgeInclusiveMeasurement.margin
        inside = PixelRect(
            minX: rect.minX == 0 ? 0 : margin, minY: rect.minY == 0 ? 0 : margin,
            maxX: rect.maxX == frameWidth ? rect.width : rect.width - margin,
            maxY: rect.maxY == frameHeight ? rect.height : rect.height - margin)
        let count = rect.width * rect.height
        if labels.count < count {
            labels.append(contentsOf: repeatElement(0, count: count - labels.count))
        }
        for pixel in seedPixels { seedMotion[pixel] = 0 }
        if seedMotion.count < count {
            seedMotion.append(contentsOf: repeatElement(0, count: count - seedMotion.count))
        }
        seedPixels.removeAll(keepingCapacity: true)
        seedWeight = 0
    }

    /// Grows this window's buffers to at least the size of `other`'s, without changing what
    /// either holds: two threads measure one frame's regions in whatever split their timing
    /// gives, and each window should be ready for any region the other has already measured.
    mutating func reserveCapacity(matching other: ComparisonWindow) {
        if labels.count < other.labels.count {
            // New labels of 0 lie below every comparison's first label: untraced, as they should be.
            labels.append(contentsOf: repeatElement(0, count: other.labels.count - labels.count))
        }
        if seedMotion.count < other.seedMotion.count {
            seedMotion.append(contentsOf: repeatElement(0, count: other.seedMotion.count - seedMotion.count))
        }
        seedPixels.reserveCapacity(other.seedPixels.capacity)
        pendingRuns.reserveCapacity(other.pendingRuns.capacity)
    }

    /// How many elements each buffer holds or has room for (for tests).
    struct BufferSizes: Equatable {
        var labels = 0, seedMotion = 0, seedPixels = 0, pendingRuns = 0
    }

    /// The sizes of the buffers (for tests).
    var bufferSizes: BufferSizes {
        BufferSizes(
            labels: labels.count, seedMotion: seedMotion.count, seedPixels: seedPixels.capacity,
            pendingRuns: pendingRuns.capacity)
    }

    /// Adds the pixels `columns` of `row` (frame coordinates, inside the window) to the seed.
    mutating func addSeedRun(row: Int, columns: Range<Int>, motion: Span<UInt8>, layout: PlaneLayout) {
        let rowStart = row * layout.bytesPerRow
        let windowRowStart = (row - rect.minY) * rect.width - rect.minX
        for column in columns {
            seedMotion[windowRowStart + column] = motion[rowStart + column]
            seedPixels.append(windowRowStart + column)
            seedWeight += Int(motion[rowStart + column])
        }
    }

    /// Compares `current` with `earlier` over the window: traces the parts of their difference
    /// at or above `low` that hold seed pixels, and tells what they show.
    ///
    /// - Parameter sampling: where `earlier` shows each current pixel's point of the scene, for
    ///   the camera's motion since it; the later calls about this comparison read it there too.
    mutating func compare(
        current: Span<UInt8>, earlier: Span<UInt8>, sampling: EarlierFrameSampling, layout: PlaneLayout, low: UInt8
    ) -> Comparison {
        self.sampling = sampling
        startLabels()
        var strongest: Part?
        for pixel in seedPixels
        where labels[pixel] < firstLabel && change(at: pixel, current: current, earlier: earlier, layout: layout) >= low {
            guard let part = trace(from: pixel, current: current, earlier: earlier, layout: layout, low: low) else {
                return .spills
            }
            if part.seedWeight > strongest?.seedWeight ?? 0 { strongest = part }
        }
        return strongest.map(Comparison.part) ?? .absent
    }

    /// The full moments of `part`, each pixel weighted by its change.
    ///
    /// - Precondition: `part` was returned by the last ``compare(current:earlier:sampling:layout:low:)``,
    ///   with the same frames.
    func moments(of part: Part, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout) -> RegionMoments {
        var moments: RegionMoments?
        for row in part.bounds.minY..<part.bounds.maxY {
            let windowRowStart = (row - rect.minY) * rect.width - rect.minX
            for column in part.bounds.minX..<part.bounds.maxX where labels[windowRowStart + column] == part.label {
                let value = change(x: column - rect.minX, y: row - rect.minY, current: current, earlier: earlier, layout: layout)
                if moments == nil {
                    moments = RegionMoments(column: column, row: row, change: value)
                } else {
                    moments!.add(column: column, row: row, change: value)
                }
            }
        }
        guard let moments else { preconditionFailure("a traced part holds at least one pixel") }
        return moments
    }

    /// `part` measured with each pixel weighted by how much of it the object covers, or nil
    /// when that cannot be told.
    ///
    /// The earlier frame shows the background b behind every pixel of the object, so a pixel
    /// showing v, covered by an object of grey level B for a fraction α of the exposure, has
    /// v = α·B + (1 − α)·b, and α = (v − b) / (B − b). That weight does not depend on the
    /// background's texture, as the change |v − b| does: on a textured background the change
    /// moves the centre of a large ball by half a pixel, and that of a blurred streak, whose
    /// ends fade over a whole diameter, by a pixel or more. Pixels of other parts of the
    /// difference (such as the object's old outline) are left out; still pixels weigh nothing
    /// on average, since noise moves v − b either way.
    ///
    /// B comes from the shape of the object's path, placed first at the part's change-weighted
    /// centre and then, once more, at the centre measured by coverage, which is closer.
    ///
    /// - Precondition: `part` was returned by the last ``compare(current:earlier:sampling:layout:low:)``,
    ///   with the same frames.
    func measureByCoverage(
        _ part: Part, moments: RegionMoments, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8
    ) -> EdgeInclusiveMeasurement? {
        var path = BlurredDisc(moments)
        var measurement: EdgeInclusiveMeasurement?
        for _ in 0..<2 {
            guard
                let model = coverageModel(of: part, path: path, current: current, earlier: earlier, layout: layout),
                let next = EdgeInclusiveMeasurement(
                    coverageSums(
                        of: part, origin: moments.change.mean, model: model, current: current, earlier: earlier,
                        layout: layout, low: low))
            else { break }
            measurement = next
            path.center = next.center
        }
        return measurement
    }

    /// `part` measured by its change, soft edge included: each pixel of the part and of the ring
    /// next to it weighted by its change less `noiseLevel` (what a still pixel changes by on
    /// average), the centre with each change capped at half the part's mean, as
    /// ``EdgeInclusiveMeasurement`` measures a region of the motion image. For objects too faint
    /// to be weighed by coverage; nil when the noise outweighs the part's edge.
    ///
    /// - Precondition: `part` was returned by the last ``compare(current:earlier:sampling:layout:low:)``,
    ///   with the same frames.
    func measureByChange(
        _ part: Part, moments: RegionMoments, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8,
        noiseLevel: Double
    ) -> EdgeInclusiveMeasurement? {
        let cap = Double(part.totalChange) / Double(part.area) / 2
        var sums = EdgeInclusiveMeasurement.Sums(origin: moments.change.mean, regionWeight: Double(part.totalChange))
        forEachMeasuredPixel(of: part, current: current, earlier: earlier, layout: layout, low: low) { column, row, change in
            let value = Double(change)
            sums.add(column: column, row: row, weight: value - noiseLevel, cappedWeight: min(value, cap) - noiseLevel)
        }
        return EdgeInclusiveMeasurement(sums)
    }

    /// The sums over `part` and the ring next to it, each pixel weighted by its coverage under
    /// `model`, positions taken relative to `origin`.
    private func coverageSums(
        of part: Part, origin: PixelPoint, model: CoverageModel, current: Span<UInt8>, earlier: Span<UInt8>,
        layout: PlaneLayout, low: UInt8
    ) -> EdgeInclusiveMeasurement.Sums {
        // Where the background is nearly the object's grey, coverage cannot be told from noise:
        // such pixels are divided by this contrast instead, and count for less.
        let leastContrast = 2 * Double(low)
        // The middle of the object weighs evenly, even on a shaded or patterned ball, and
        // the edge in proportion to coverage, as in the motion image's measurement.
        let cap = model.middleCoverage / 2
        var sums = EdgeInclusiveMeasurement.Sums(origin: origin)
        forEachMeasuredPixel(of: part, current: current, earlier: earlier, layout: layout, low: low) { column, row, change in
            let levels = levels(column: column, row: row, current: current, earlier: earlier, layout: layout)
            let background = levels.before
            let contrast = model.objectLuma - background
            let coverage = (Double(levels.now) - background)
                / (contrast >= 0 ? max(contrast, leastContrast) : min(contrast, -leastContrast))
            sums.add(column: column, row: row, weight: coverage, cappedWeight: min(coverage, cap))
            if change >= low { sums.regionWeight += coverage }
        }
        return sums
    }

    /// What turns a pixel of an object into its coverage: the object's grey level, and the
    /// coverage of the middle of its path (1 for a sharp ball, less for a streak).
    private struct CoverageModel {
        var objectLuma: Double
        var middleCoverage: Double
    }

    /// The coverage model of `part`, whose blurred path is `path`, or nil when too few of its
    /// pixels are known to find it.
    ///
    /// How long a ball covered each pixel of its blurred path follows from the path's shape
    /// (``BlurredDisc``): the whole exposure in the middle of a sharp ball, less along a
    /// streak. Each such pixel then says v − b = α·(B − b), and B is the least-squares solution
    /// over them. The ball's own grey level need never be seen, as indeed it is not in a long
    /// streak, nor need the background vary.
    private func coverageModel(
        of part: Part, path: BlurredDisc, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout
    ) -> CoverageModel? {
        // Minimising Σ (v − b − α·(B − b))² over B: B·Σα² = Σ α·(v − b) + Σ α²·b.
        var count = 0, sumAlphaSquared = 0.0, sumTerms = 0.0
        let bounds = part.bounds
        for row in bounds.minY..<bounds.maxY {
            let windowRowStart = (row - rect.minY) * rect.width - rect.minX
            for column in bounds.minX..<bounds.maxX where labels[windowRowStart + column] == part.label {
                // The faint ends of a streak say little about B and much about noise.
                guard let alpha = path.coverage(column: column, row: row), alpha >= path.axisCoverage / 4 else { continue }
                let levels = levels(column: column, row: row, current: current, earlier: earlier, layout: layout)
                let b = levels.before, v = Double(levels.now)
                count += 1
                sumAlphaSquared += alpha * alpha
                sumTerms += alpha * (v - b) + alpha * alpha * b
            }
        }
        guard count >= Self.leastMiddlePixels else { return nil }
        return CoverageModel(objectLuma: sumTerms / sumAlphaSquared, middleCoverage: path.axisCoverage)
    }

    /// Calls `body` with the frame column and row and the change of each pixel of `part`, and
    /// of each pixel next to it that is in no other part of the difference (such as the
    /// object's old outline).
    ///
    /// The part reaches wherever the object covers a pixel by more than the low threshold over
    /// its contrast, a small fraction for an object measured by coverage: the ring next to it
    /// holds the rest of its soft edge. Pixels farther out would add only noise, and weigh by
    /// their squared distance in the spread.
    private func forEachMeasuredPixel(
        of part: Part, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8,
        _ body: (Int, Int, UInt8) -> Void
    ) {
        let ring = PixelRect(
            minX: max(rect.minX, part.bounds.minX - 1), minY: max(rect.minY, part.bounds.minY - 1),
            maxX: min(rect.maxX, part.bounds.maxX + 1), maxY: min(rect.maxY, part.bounds.maxY + 1))
        for row in ring.minY..<ring.maxY {
            for column in ring.minX..<ring.maxX {
                let x = column - rect.minX, y = row - rect.minY
                let value = change(x: x, y: y, current: current, earlier: earlier, layout: layout)
                let included = labels[y * rect.width + x] == part.label || (value < low && touches(part, x: x, y: y))
                if included { body(column, row, value) }
            }
        }
    }

    /// Whether a pixel next to (`x`, `y`) of the window belongs to `part`.
    ///
    /// All the neighbours are looked at, without stopping at the first that belongs: along the
    /// part's soft edge which neighbour that is, if any, cannot be predicted, and a branch per
    /// neighbour cost more than the few extra loads.
    private func touches(_ part: Part, x: Int, y: Int) -> Bool {
        var belonging = 0
        for neighbourY in max(y - 1, 0)...min(y + 1, rect.height - 1) {
            for neighbourX in max(x - 1, 0)...min(x + 1, rect.width - 1) {
                belonging |= labels[neighbourY * rect.width + neighbourX] == part.label ? 1 : 0
            }
        }
        return belonging != 0
    }

    /// |current − earlier| at pixel `index` of the window.
    @inline(__always)
    private func change(at index: Int, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout) -> UInt8 {
        change(x: index % rect.width, y: index / rect.width, current: current, earlier: earlier, layout: layout)
    }

    /// The change at pixel (`x`, `y`) of the window: |current − earlier| for a still camera, as
    /// the motion image measures it (``EarlierFrameSampling``) for a moving one.
    @inline(__always)
    private func change(x: Int, y: Int, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout) -> UInt8 {
        change(x: x, y: y, frameRowStart: frameRowStart(y: y, layout: layout), current: current, earlier: earlier, layout: layout)
    }

    /// The change at pixel (`x`, `y`) of the window, whose row starts at `frameRowStart` in the
    /// frame (the index of the window's first column): as ``change(x:y:current:earlier:layout:)``
    /// without working out the row's place again for every pixel along it.
    @inline(__always)
    private func change(
        x: Int, y: Int, frameRowStart: Int, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout
    ) -> UInt8 {
        let index = frameRowStart + x
        guard !sampling.isStill else { return ScalarBytes.absoluteDifference(current[index], earlier[index]) }
        return sampling.change(now: current[index], column: rect.minX + x, row: rect.minY + y, earlier: earlier, layout: layout)
    }

    /// Where row `y` of the window starts in the frame.
    @inline(__always)
    private func frameRowStart(y: Int, layout: PlaneLayout) -> Int {
        (rect.minY + y) * layout.bytesPerRow + rect.minX
    }

    /// The grey levels of frame pixel (`column`, `row`) now and, where the camera's motion puts
    /// the same point of the scene, in the earlier frame (blended between its pixels).
    @inline(__always)
    private func levels(
        column: Int, row: Int, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout
    ) -> (now: UInt8, before: Double) {
        let index = row * layout.bytesPerRow + column
        guard !sampling.isStill else { return (current[index], Double(earlier[index])) }
        return (current[index], sampling.interpolated(column: column, row: row, earlier: earlier, layout: layout))
    }

    /// Starts the labels of a new comparison, clearing them only when the label count wraps.
    private mutating func startLabels() {
        if nextLabel > UInt32.max - UInt32(seedPixels.count + 2) {
            for index in labels.indices { labels[index] = 0 }
            nextLabel = 1
        }
        firstLabel = nextLabel
        nextLabel += 1
    }

    /// Labels the part of the difference at or above `low` that holds `start`, eight neighbours
    /// joined as in ``MotionRegionFinder``, and returns it; or nil when it comes within a soft
    /// edge of the window's edge (away from the frame's), or grows beyond the largest part.
    ///
    /// The part is traced a row's run at a time (a scanline fill): each run is found by reading
    /// along its row, and the rows above and below it are read once over its columns and one
    /// more either side. That visits each pixel of the part a few times, where tracing it pixel
    /// by pixel looked at all eight neighbours of each. Which pixels the part holds, and so its
    /// sums and whether it spills, do not depend on the order it is traced in.
    private mutating func trace(
        from start: Int, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8
    ) -> Part? {
        let label = nextLabel
        nextLabel += 1
        // The labels and the pending runs are moved out of `self` (not copied) for the trace and
        // written through spans and a local array: writing them as stored arrays checked the
        // array's uniqueness again at every pixel.
        var labels: [UInt32] = []
        swap(&labels, &self.labels)
        var pending: [WindowRun] = []
        swap(&pending, &pendingRuns)
        var labelSpan = labels.mutableSpan
        let part = trace(
            from: start, label: label, labels: &labelSpan, pending: &pending, current: current, earlier: earlier,
            layout: layout, low: low)
        swap(&labels, &self.labels)
        swap(&pending, &pendingRuns)
        return part
    }

    /// ``trace(from:current:earlier:layout:low:)`` with the labels and the pending runs lent.
    private func trace(
        from start: Int, label: UInt32, labels: inout MutableSpan<UInt32>, pending: inout [WindowRun],
        current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8
    ) -> Part? {
        let width = rect.width, height = rect.height
        let startX = start % width, startY = start / width
        var part = Part(label: label, origin: (rect.minX, rect.minY), x: startX, y: startY)
        labels[start] = label
        part.add(
            x: startX, y: startY, change: change(x: startX, y: startY, current: current, earlier: earlier, layout: layout),
            seedMotion: seedMotion[start])
        pending.removeAll(keepingCapacity: true)
        let first = run(
            through: startX, y: startY, into: &part, labels: &labels, current: current, earlier: earlier, layout: layout,
            low: low)
        guard staysInside(first, part) else { return nil }
        pending.append(first)
        while let run = pending.popLast() {
            for neighbourY in stride(from: run.y - 1, through: run.y + 1, by: 2) where neighbourY >= 0 && neighbourY < height {
                let rowStart = neighbourY * width
                let frameRow = frameRowStart(y: neighbourY, layout: layout)
                var x = max(run.minX - 1, 0)
                let end = min(run.maxX + 1, width)
                while x < end {
                    if labels[rowStart + x] < firstLabel {
                        let value = change(
                            x: x, y: neighbourY, frameRowStart: frameRow, current: current, earlier: earlier, layout: layout)
                        if value >= low {
                            labels[rowStart + x] = label
                            part.add(x: x, y: neighbourY, change: value, seedMotion: seedMotion[rowStart + x])
                            let found = self.run(
                                through: x, y: neighbourY, into: &part, labels: &labels, current: current, earlier: earlier,
                                layout: layout, low: low)
                            // A spill is known as soon as one run shows it.
                            guard staysInside(found, part) else { return nil }
                            pending.append(found)
                            x = found.maxX
                            continue
                        }
                        labels[rowStart + x] = firstLabel
                    }
                    x += 1
                }
            }
        }
        return part
    }

    /// Whether `run`, just added to `part`, leaves it short of spilling: inside the window less
    /// its soft edge, and no larger than the largest part.
    @inline(__always)
    private func staysInside(_ run: WindowRun, _ part: Part) -> Bool {
        run.y >= inside.minY && run.y < inside.maxY && run.minX >= inside.minX && run.maxX <= inside.maxX
            && part.area <= largestPart
    }

    /// Grows the part from pixel (`x`, `y`), already labelled and added to it, along its row
    /// both ways over the pixels at or above `low` not yet looked at, labels and adds them, and
    /// returns the run they make with it.
    @inline(__always)
    private func run(
        through x: Int, y: Int, into part: inout Part, labels: inout MutableSpan<UInt32>, current: Span<UInt8>,
        earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8
    ) -> WindowRun {
        let rowStart = y * rect.width
        let frameRow = frameRowStart(y: y, layout: layout)
        var minX = x, maxX = x + 1
        while minX > 0, labels[rowStart + minX - 1] < firstLabel {
            let value = change(x: minX - 1, y: y, frameRowStart: frameRow, current: current, earlier: earlier, layout: layout)
            guard value >= low else {
                labels[rowStart + minX - 1] = firstLabel
                break
            }
            minX -= 1
            labels[rowStart + minX] = part.label
            part.add(x: minX, y: y, change: value, seedMotion: seedMotion[rowStart + minX])
        }
        while maxX < rect.width, labels[rowStart + maxX] < firstLabel {
            let value = change(x: maxX, y: y, frameRowStart: frameRow, current: current, earlier: earlier, layout: layout)
            guard value >= low else {
                labels[rowStart + maxX] = firstLabel
                break
            }
            labels[rowStart + maxX] = part.label
            part.add(x: maxX, y: y, change: value, seedMotion: seedMotion[rowStart + maxX])
            maxX += 1
        }
        let found = WindowRun(y: y, minX: minX, maxX: maxX)
        part.include(found)
        return found
    }
}

/// Pixels `minX..<maxX` of row `y` of a comparison window.
private struct WindowRun {
    var y: Int
    var minX: Int
    var maxX: Int
}
