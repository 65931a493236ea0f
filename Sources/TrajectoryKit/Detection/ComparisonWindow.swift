/// The current frame compared with one earlier frame over a small window around a moving
/// region: the absolute difference of the two, and the connected parts of it that hold the
/// region's pixels (the seed).
///
/// Where the object has moved clear of where it was in the earlier frame, the difference shows
/// its whole current outline as one part and its old outline as another; the part holding the
/// seed is the object now. Only the parts the seed touches are traced, so the work beyond
/// the difference itself is proportional to them. Buffers are kept between uses: once the
/// largest window so far has been seen, nothing more is allocated.
struct ComparisonWindow {
    /// Pixels of known coverage an object needs for its grey level to be found. Objects are
    /// measured by coverage only when they stand well clear of the noise
    /// (``WholeObjectRefiner/leastCoverageContrast``), so a few place it to a few percent of
    /// the contrast, and a ball of radius 3 px has little more than that in its middle.
    static let leastMiddlePixels = 4

    /// One connected part of the difference, above the low threshold, that holds seed pixels.
    struct Part {
        /// Its number in the window's labels.
        var label: Int32
        /// Its moments, in frame coordinates, each pixel weighted by its difference.
        var moments: RegionMoments
        /// Total motion value of the seed pixels it holds.
        var seedWeight: Int
    }

    /// The compared pixels, in frame coordinates.
    private(set) var rect = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    /// |current − earlier| for each pixel of `rect`, rows of `rect.width` bytes.
    private var change: [UInt8] = []
    /// For each pixel of `rect`, its motion value if it belongs to the seed, else 0.
    private var seedMotion: [UInt8] = []
    /// The seed's pixels, as indices into the window.
    private var seedPixels: [Int] = []
    /// For each pixel of `rect`, the label of the traced part that holds it, or 0.
    private var labels: [Int32] = []
    /// Pixels waiting to be visited while a part is traced.
    private var pending: [Int] = []

    /// Sets the window, with no seed yet.
    mutating func start(rect: PixelRect) {
        self.rect = rect
        let count = rect.width * rect.height
        if change.count < count {
            change = [UInt8](repeating: 0, count: count)
            labels = [Int32](repeating: 0, count: count)
        }
        seedMotion.removeAll(keepingCapacity: true)
        seedMotion.append(contentsOf: repeatElement(0, count: count))
        seedPixels.removeAll(keepingCapacity: true)
    }

    /// Adds the pixels `columns` of `row` (frame coordinates, inside the window) to the seed.
    mutating func addSeedRun(row: Int, columns: Range<Int>, motion: Span<UInt8>, layout: PlaneLayout) {
        let rowStart = row * layout.bytesPerRow
        let windowRowStart = (row - rect.minY) * rect.width - rect.minX
        for column in columns {
            seedMotion[windowRowStart + column] = motion[rowStart + column]
            seedPixels.append(windowRowStart + column)
        }
    }

    /// Compares `current` with `earlier` over the window, traces the parts of the difference
    /// at or above `low` that hold seed pixels, and returns the one holding the most seed
    /// motion, or nil when no seed pixel reaches `low`.
    mutating func strongestSeededPart(current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8) -> Part? {
        computeDifference(current: current, earlier: earlier, layout: layout)
        for index in 0..<(rect.width * rect.height) { labels[index] = 0 }
        var strongest: Part?
        var nextLabel: Int32 = 1
        for pixel in seedPixels where labels[pixel] == 0 && change[pixel] >= low {
            let part = trace(from: pixel, label: nextLabel, low: low)
            nextLabel += 1
            if part.seedWeight > strongest?.seedWeight ?? 0 { strongest = part }
        }
        return strongest
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
    /// - Precondition: `part` was returned by the last ``strongestSeededPart(current:earlier:layout:low:)``
    ///   with the same frames, and its measurement window lies inside the comparison window.
    func measureByCoverage(
        _ part: Part, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, low: UInt8
    ) -> EdgeInclusiveMeasurement? {
        var path = BlurredDisc(part.moments)
        var measurement: EdgeInclusiveMeasurement?
        for _ in 0..<2 {
            guard
                let model = coverageModel(of: part, path: path, current: current, earlier: earlier, layout: layout),
                let next = EdgeInclusiveMeasurement(
                    coverageSums(of: part, model: model, current: current, earlier: earlier, layout: layout, low: low))
            else { break }
            measurement = next
            path.center = next.center
        }
        return measurement
    }

    /// The sums of `part`'s window, each pixel weighted by its coverage under `model`.
    private func coverageSums(
        of part: Part, model: CoverageModel, current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout,
        low: UInt8
    ) -> EdgeInclusiveMeasurement.Sums {
        // Where the background is nearly the object's grey, coverage cannot be told from noise:
        // such pixels are divided by this contrast instead, and count for less.
        let leastContrast = 2 * Double(low)
        // The middle of the object weighs evenly, even on a shaded or patterned ball, and
        // the edge in proportion to coverage, as in the motion image's measurement.
        let cap = model.middleCoverage / 2
        var sums = EdgeInclusiveMeasurement.Sums(origin: part.moments.change.mean)
        forEachMeasuredPixel(of: part, low: low) { column, row, change in
            let index = row * layout.bytesPerRow + column
            let background = Double(earlier[index])
            let contrast = model.objectLuma - background
            let coverage = (Double(current[index]) - background)
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
        let bounds = part.moments.bounds
        for row in bounds.minY..<bounds.maxY {
            let windowRowStart = (row - rect.minY) * rect.width - rect.minX
            let frameRowStart = row * layout.bytesPerRow
            for column in bounds.minX..<bounds.maxX where labels[windowRowStart + column] == part.label {
                // The faint ends of a streak say little about B and much about noise.
                guard let alpha = path.coverage(column: column, row: row), alpha >= path.axisCoverage / 4 else { continue }
                let b = Double(earlier[frameRowStart + column]), v = Double(current[frameRowStart + column])
                count += 1
                sumAlphaSquared += alpha * alpha
                sumTerms += alpha * (v - b) + alpha * alpha * b
            }
        }
        guard count >= Self.leastMiddlePixels else { return nil }
        return CoverageModel(objectLuma: sumTerms / sumAlphaSquared, middleCoverage: path.axisCoverage)
    }

    /// Calls `body` with the frame column and row and the change of each pixel of `part`'s
    /// measurement window that is not in another part of the difference.
    private func forEachMeasuredPixel(of part: Part, low: UInt8, _ body: (Int, Int, UInt8) -> Void) {
        let window = EdgeInclusiveMeasurement.window(around: part.moments.bounds, within: rect)
        for row in window.minY..<window.maxY {
            let windowRowStart = (row - rect.minY) * rect.width - rect.minX
            for column in window.minX..<window.maxX {
                let value = change[windowRowStart + column]
                if value < low || labels[windowRowStart + column] == part.label { body(column, row, value) }
            }
        }
    }

    /// |current − earlier| over the window into `change`, 16 pixels at a time where the
    /// window is at least that wide.
    ///
    /// A comparison with a camera that moves would read `earlier` shifted by the camera's
    /// motion between the two frames; this is the one place that would change.
    private mutating func computeDifference(current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout) {
        // A mutable span borrows all of `self`: read what is needed first.
        let rect = self.rect, width = rect.width
        var output = change.mutableSpan
        if width >= ByteVector.scalarCount {
            let now = current.bytes, before = earlier.bytes
            var outputBytes = output.mutableBytes
            for row in rect.minY..<rect.maxY {
                let frameOffset = row * layout.bytesPerRow + rect.minX
                let windowOffset = (row - rect.minY) * width
                forEachChunkStart(coveringWidth: width) { x in
                    let a = now.unsafeLoadUnaligned(fromByteOffset: frameOffset + x, as: ByteVector.self)
                    let b = before.unsafeLoadUnaligned(fromByteOffset: frameOffset + x, as: ByteVector.self)
                    outputBytes.storeBytes(
                        of: ByteVector.absoluteDifference(a, b), toByteOffset: windowOffset + x, as: ByteVector.self)
                }
            }
        } else {
            for row in rect.minY..<rect.maxY {
                let frameOffset = row * layout.bytesPerRow + rect.minX
                let windowOffset = (row - rect.minY) * width
                for x in 0..<width {
                    output[windowOffset + x] = ScalarBytes.absoluteDifference(current[frameOffset + x], earlier[frameOffset + x])
                }
            }
        }
    }

    /// Labels the part of the difference at or above `low` that holds `start`, eight neighbours
    /// joined as in ``MotionRegionFinder``, and returns it.
    private mutating func trace(from start: Int, label: Int32, low: UInt8) -> Part {
        let width = rect.width, height = rect.height
        var part = Part(
            label: label,
            moments: RegionMoments(column: rect.minX + start % width, row: rect.minY + start / width, change: change[start]),
            seedWeight: Int(seedMotion[start]))
        labels[start] = label
        pending.removeAll(keepingCapacity: true)
        pending.append(start)
        while let pixel = pending.popLast() {
            let x = pixel % width, y = pixel / width
            for neighbourY in max(y - 1, 0)...min(y + 1, height - 1) {
                for neighbourX in max(x - 1, 0)...min(x + 1, width - 1) {
                    let neighbour = neighbourY * width + neighbourX
                    guard labels[neighbour] == 0, change[neighbour] >= low else { continue }
                    labels[neighbour] = label
                    pending.append(neighbour)
                    part.moments.add(column: rect.minX + neighbourX, row: rect.minY + neighbourY, change: change[neighbour])
                    part.seedWeight += Int(seedMotion[neighbour])
                }
            }
        }
        return part
    }
}
