/// Finds the connected regions of a motion image: pixels whose change reaches the low
/// threshold, joined with their eight neighbours, kept when some pixel reaches the high one.
///
/// Each row is reduced to runs of moving pixels, skipping 64 still pixels at a time, and runs
/// that touch runs of the row above are merged with a union-find. Motion is sparse, so the
/// work beyond the vector scan is proportional to the moving pixels. Every buffer is kept
/// between frames: after the busiest frame so far nothing more is allocated.
struct MotionRegionFinder {
    private struct Run {
        var row: Int
        var start: Int
        var end: Int  // exclusive
        var moments: RegionMoments
    }

    private var runs: [Run] = []
    /// Union-find forest over `runs`: a root is its own parent.
    private var parents: [Int] = []
    /// For each run, the index of its region in `regions`, or −1 once its region is dropped.
    private var regionOfRun: [Int] = []
    /// For each region gathered (kept or not), its index in `regions` once the weak ones are
    /// dropped, or −1.
    private var keptIndexOfRegion: [Int] = []
    /// The runs' indices ordered by region: region i's runs are
    /// `runsByRegion[firstRunOfRegion[i]..<firstRunOfRegion[i + 1]]`.
    private var runsByRegion: [Int] = []
    private var firstRunOfRegion: [Int] = []
    private var nextSlotOfRegion: [Int] = []
    /// The regions found by the last call, in the order their first run was found.
    private(set) var regions: [RegionMoments] = []

    mutating func findRegions(in motion: Span<UInt8>, layout: PlaneLayout, thresholds: MotionThresholds) {
        // The row scan loads vectors without a bounds check each: this check covers them all.
        precondition(motion.count >= layout.minimumByteCount, "the motion image must hold \(layout.minimumByteCount) bytes")
        runs.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
        var previousRowRuns = 0..<0
        for row in 0..<layout.height {
            let firstRun = runs.count
            appendRuns(ofRow: row, motion: motion, layout: layout, low: thresholds.low)
            let rowRuns = firstRun..<runs.count
            joinTouchingRuns(previousRowRuns, rowRuns)
            previousRowRuns = rowRuns
        }
        gatherRegions(high: thresholds.high)
    }

    /// Vectors of still pixels the row scan skips at a time.
    private static let vectorsPerBlock = 4

    /// Scans one row, appending a run for every stretch of pixels whose change is at least `low`.
    private mutating func appendRuns(ofRow row: Int, motion: Span<UInt8>, layout: PlaneLayout, low: UInt8) {
        let rowStart = row * layout.bytesPerRow
        let bytes = motion.bytes
        let lowVector = ByteVector(repeating: low)
        var open: (start: Int, sums: RowRunSums)? = nil
        /// Whether any of the `count` vectors from column `x` on holds a pixel that reaches `low`.
        @inline(__always)
        func reachesLow(from x: Int, vectors count: Int) -> Bool {
            var peak = ByteVector()
            for vector in 0..<count {
                peak = ByteVector.maximum(
                    peak,
                    bytes.unsafeLoadUnaligned(
                        fromUncheckedByteOffset: rowStart + x + vector * ByteVector.scalarCount, as: ByteVector.self))
            }
            return peak.laneMask(atLeast: lowVector) != 0
        }
        let blockWidth = Self.vectorsPerBlock * ByteVector.scalarCount
        var x = 0
        while x < layout.width {
            // Most of a frame is still: four vectors are tested at once, with one branch. (With a
            // low of 0 no pixel is still; skipping the test then also cost fewer instructions
            // under callgrind than leaving it to the mask.)
            if low > 0, x + blockWidth <= layout.width, !reachesLow(from: x, vectors: Self.vectorsPerBlock) {
                if let run = open { closeRun(run, end: x, row: row); open = nil }
                x += blockWidth
                continue
            }
            let chunkEnd = min(x + ByteVector.scalarCount, layout.width)
            if chunkEnd - x == ByteVector.scalarCount {
                scanVector(at: x, ofRow: row, motion: motion, layout: layout, lowVector: lowVector, open: &open)
                x = chunkEnd
                continue
            }
            for column in x..<chunkEnd {
                let change = motion[rowStart + column]
                if change >= low {
                    if open == nil { open = (column, RowRunSums()) }
                    open!.sums.add(column: column, change: change)
                } else if let run = open {
                    closeRun(run, end: column, row: row)
                    open = nil
                }
            }
            x = chunkEnd
        }
        if let run = open { closeRun(run, end: layout.width, row: row) }
    }

    /// Continues the scan of row `row` over the 16 pixels from column `x` on: closes the
    /// `open` run where a still pixel ends it, and adds each stretch of pixels at or above the
    /// low threshold (`lowVector`, in every lane) to it or to a new one. The stretches are read
    /// off a bit mask of the vector, so no pixel takes a branch of its own: in a moving area
    /// whether the next pixel reaches the threshold cannot be predicted.
    @inline(__always)
    private mutating func scanVector(
        at x: Int, ofRow row: Int, motion: Span<UInt8>, layout: PlaneLayout, lowVector: ByteVector,
        open: inout (start: Int, sums: RowRunSums)?
    ) {
        let rowStart = row * layout.bytesPerRow
        let pixels = motion.bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: rowStart + x, as: ByteVector.self)
        let moving = pixels.laneMask(atLeast: lowVector)
        var lane = 0
        while lane < ByteVector.scalarCount {
            let ahead = moving >> UInt32(lane)
            let still = ahead == 0 ? ByteVector.scalarCount - lane : ahead.trailingZeroBitCount
            if still > 0, let run = open {
                closeRun(run, end: x + lane, row: row)
                open = nil
            }
            lane += still
            guard lane < ByteVector.scalarCount else { return }
            // Lanes above 15 are clear, so the count of set bits from `lane` stops there.
            let runEnd = lane + (~(moving >> UInt32(lane))).trailingZeroBitCount
            if open == nil { open = (x + lane, RowRunSums()) }
            for column in (x + lane)..<(x + runEnd) {
                open!.sums.add(column: column, change: motion[rowStart + column])
            }
            lane = runEnd
        }
    }

    private mutating func closeRun(_ run: (start: Int, sums: RowRunSums), end: Int, row: Int) {
        parents.append(runs.count)
        runs.append(Run(row: row, start: run.start, end: end, moments: RegionMoments(row: row, along: run.sums)))
    }

    /// Merges every run of `below` with the runs of `above` it touches, diagonals included.
    /// Both ranges are sorted by column, so one sweep finds all pairs.
    private mutating func joinTouchingRuns(_ above: Range<Int>, _ below: Range<Int>) {
        var candidate = above.lowerBound
        for lower in below {
            // Runs of the row above that end left of this run's left neighbour cannot touch
            // it, nor any later run of this row.
            while candidate < above.upperBound && runs[candidate].end < runs[lower].start {
                candidate += 1
            }
            var upper = candidate
            while upper < above.upperBound && runs[upper].start <= runs[lower].end {
                union(upper, lower)
                upper += 1
            }
        }
    }

    private mutating func root(of run: Int) -> Int {
        var run = run
        while parents[run] != run {
            parents[run] = parents[parents[run]]  // path halving
            run = parents[run]
        }
        return run
    }

    private mutating func union(_ a: Int, _ b: Int) {
        let rootA = root(of: a), rootB = root(of: b)
        // The earlier run stays the root, so regions come out in scan order.
        if rootA < rootB { parents[rootB] = rootA } else if rootB < rootA { parents[rootA] = rootB }
    }

    /// Adds up the runs of each region, keeps the regions that reach `high` somewhere, and
    /// lists the kept regions' runs.
    private mutating func gatherRegions(high: UInt8) {
        regions.removeAll(keepingCapacity: true)
        regionOfRun.removeAll(keepingCapacity: true)
        for run in runs.indices {
            let runRoot = root(of: run)
            // A root comes before the other runs of its region, so its region exists already.
            let region = runRoot == run ? regions.count : regionOfRun[runRoot]
            regionOfRun.append(region)
            if runRoot == run { regions.append(runs[run].moments) } else { regions[region].add(runs[run].moments) }
        }
        dropRegions(below: high)
        listRunsByRegion()
    }

    /// Removes the regions whose peak change is below `high` and renumbers the rest.
    private mutating func dropRegions(below high: UInt8) {
        keptIndexOfRegion.removeAll(keepingCapacity: true)
        var kept = 0
        for region in regions.indices {
            if regions[region].peak >= high {
                regions[kept] = regions[region]
                keptIndexOfRegion.append(kept)
                kept += 1
            } else {
                keptIndexOfRegion.append(-1)
            }
        }
        regions.removeLast(regions.count - kept)
        for run in regionOfRun.indices { regionOfRun[run] = keptIndexOfRegion[regionOfRun[run]] }
    }

    /// Orders the runs by region (a counting sort), so that one region's runs can be visited alone.
    private mutating func listRunsByRegion() {
        firstRunOfRegion.removeAll(keepingCapacity: true)
        firstRunOfRegion.append(contentsOf: repeatElement(0, count: regions.count + 1))
        for region in regionOfRun where region >= 0 { firstRunOfRegion[region + 1] += 1 }
        for region in regions.indices { firstRunOfRegion[region + 1] += firstRunOfRegion[region] }
        runsByRegion.removeAll(keepingCapacity: true)
        runsByRegion.append(contentsOf: repeatElement(0, count: firstRunOfRegion[regions.count]))
        nextSlotOfRegion.removeAll(keepingCapacity: true)
        nextSlotOfRegion.append(contentsOf: firstRunOfRegion.dropLast())
        for (run, region) in regionOfRun.enumerated() where region >= 0 {
            runsByRegion[nextSlotOfRegion[region]] = run
            nextSlotOfRegion[region] += 1
        }
    }

    /// Calls `body` with the row and the columns of each run of pixels of `regions[index]`.
    func forEachRun(ofRegion index: Int, _ body: (_ row: Int, _ columns: Range<Int>) -> Void) {
        for position in firstRunOfRegion[index]..<firstRunOfRegion[index + 1] {
            let run = runs[runsByRegion[position]]
            body(run.row, run.start..<run.end)
        }
    }
}
