/// Finds the connected regions of a motion image: pixels whose change reaches the low
/// threshold, joined with their eight neighbours, kept when some pixel reaches the high one.
///
/// Each row is reduced to runs of moving pixels, skipping 16 still pixels at a time, and runs
/// that touch runs of the row above are merged with a union-find. Motion is sparse, so the
/// work beyond the vector scan is proportional to the moving pixels. Every buffer is kept
/// between frames: after the busiest frame so far nothing more is allocated.
struct MotionRegionFinder {
    private struct Run {
        var start: Int
        var end: Int  // exclusive
        var moments: RegionMoments
    }

    private var runs: [Run] = []
    /// Union-find forest over `runs`: a root is its own parent.
    private var parents: [Int] = []
    /// For each run that is a root, the index of its region in `regions`, else −1.
    private var regionOfRoot: [Int] = []
    /// The regions found by the last call, in the order their first run was found.
    private(set) var regions: [RegionMoments] = []

    mutating func findRegions(in motion: Span<UInt8>, layout: PlaneLayout, thresholds: MotionThresholds) {
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

    /// Scans one row, appending a run for every stretch of pixels whose change is at least `low`.
    private mutating func appendRuns(ofRow row: Int, motion: Span<UInt8>, layout: PlaneLayout, low: UInt8) {
        let rowStart = row * layout.bytesPerRow
        let bytes = motion.bytes
        let lowVector = ByteVector(repeating: low)
        var open: (start: Int, sums: RowRunSums)? = nil
        var x = 0
        while x < layout.width {
            let chunkEnd = min(x + ByteVector.scalarCount, layout.width)
            if chunkEnd - x == ByteVector.scalarCount {
                let changes = bytes.unsafeLoadUnaligned(fromByteOffset: rowStart + x, as: ByteVector.self)
                if !any(changes .>= lowVector) {
                    if let run = open { closeRun(run, end: x, row: row); open = nil }
                    x = chunkEnd
                    continue
                }
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

    private mutating func closeRun(_ run: (start: Int, sums: RowRunSums), end: Int, row: Int) {
        parents.append(runs.count)
        runs.append(Run(start: run.start, end: end, moments: RegionMoments(row: row, along: run.sums)))
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

    /// Adds up the runs of each region and keeps the regions that reach `high` somewhere.
    private mutating func gatherRegions(high: UInt8) {
        regions.removeAll(keepingCapacity: true)
        regionOfRoot.removeAll(keepingCapacity: true)
        for run in runs.indices {
            let runRoot = root(of: run)
            if runRoot == run {
                regionOfRoot.append(regions.count)
                regions.append(runs[run].moments)
            } else {
                regionOfRoot.append(-1)
                regions[regionOfRoot[runRoot]].add(runs[run].moments)
            }
        }
        regions.removeAll { $0.peak < high }
    }
}
