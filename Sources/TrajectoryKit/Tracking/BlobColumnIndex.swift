/// One frame's blobs in the order of their centres' columns, to find those near a point without
/// going through them all: a busy scene (leaves in the wind, a crowd) holds hundreds of blobs a
/// frame, and the tracker looks around every track in it.
///
/// It narrows the blobs down to a band of columns; the caller then applies its own test to
/// each, so what is found does not depend on the index, and the order it is found in does not
/// matter to any caller. The storage is kept between frames: rebuilding allocates nothing once
/// it has held as many blobs as the frame.
struct BlobColumnIndex {
    /// Indices of the blobs, by increasing centre column (ties by index).
    private var order: [Int] = []
    /// Their centres' columns, in that order.
    private var columns: [Double] = []
    /// The longest ``Blob/halfLength`` among the blobs: a blob whose edge comes within some
    /// distance of a point has its centre within that distance plus this.
    private(set) var longestReach = 0.0
    /// Whether some blob's column is not a finite number (from a caller's own blobs): the
    /// columns cannot be ordered then, and every blob is returned.
    private var hasUnorderedBlob = false

    /// The band is widened by this many pixels either side, so that rounding in a caller's own
    /// distance never leaves out a blob its test would take.
    private static let slack = 1.0

    /// Indexes `blobs`, forgetting those indexed before.
    mutating func rebuild(_ blobs: [Blob]) {
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: blobs.indices)
        hasUnorderedBlob = blobs.contains { !$0.center.x.isFinite }
        if !hasUnorderedBlob { order.heapSort { (blobs[$0].center.x, $0) < (blobs[$1].center.x, $1) } }
        columns.removeAll(keepingCapacity: true)
        longestReach = 0
        for index in order {
            columns.append(blobs[index].center.x)
            longestReach = max(longestReach, blobs[index].halfLength)
        }
    }

    /// Makes room for `count` blobs, so that rebuilding with as many allocates nothing.
    mutating func reserveCapacity(_ count: Int) {
        order.reserveCapacity(count)
        columns.reserveCapacity(count)
    }

    /// Indices of the blobs whose centre's column is within `distance` of `column` (and
    /// perhaps a few more): all those whose centre is within `distance` of a point in that
    /// column.
    func blobs(nearColumn column: Double, within distance: Double) -> ArraySlice<Int> {
        guard !hasUnorderedBlob else { return order[...] }
        let lower = firstIndex(notBelow: column - distance - Self.slack)
        let upper = firstIndex(notBelow: column + distance + Self.slack, from: lower, nextUp: true)
        return order[lower..<upper]
    }

    /// The first position from `start` whose column is at least `bound` (above it, when
    /// `nextUp`), by bisection.
    private func firstIndex(notBelow bound: Double, from start: Int = 0, nextUp: Bool = false) -> Int {
        var low = start, high = columns.count
        while low < high {
            let middle = (low + high) / 2
            let isBelow = nextUp ? columns[middle] <= bound : columns[middle] < bound
            if isBelow { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
