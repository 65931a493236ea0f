/// The pixels of the current frame by which the camera's motion is measured: in every cell of
/// a grid over the frame, the few with the strongest gradient.
///
/// A flat pixel says nothing about a shift; one on an edge says how far the frame moved across
/// the edge. Taking the best few of every cell, rather than the strongest of the whole frame,
/// spreads them over the background, so that no single object (a high-contrast shirt walking
/// past) can hold most of them. Candidates lie on a lattice, to bound the cost on large frames.
struct TrackingPoints {
    /// One chosen pixel: where it is, its grey level and its gradient (grey levels per pixel,
    /// central differences).
    struct Point {
        var column: Int
        var row: Int
        var value: Double
        var gradientX: Double
        var gradientY: Double
    }

    /// About this many lattice pixels are looked at per frame, whatever its size (a pixel in
    /// six in each direction at 720p).
    static let latticeSize = 30_000
    /// A cell is this many lattice steps on each side ...
    static let cellSteps = 8
    /// ... and gives at most this many points (1 200 or so at 720p).
    static let pointsPerCell = 3
    /// A pixel whose |∂x| + |∂y| (grey levels over two pixels) is below this is too flat to tell
    /// a shift from noise.
    static let leastGradient = 6

    private(set) var points: [Point] = []
    /// The best candidates of the cell being scanned, strongest first.
    private var best: [(strength: Int, column: Int, row: Int)] = []

    /// Chooses the points of `frame`.
    mutating func choose(in frame: Span<UInt8>, layout: PlaneLayout) {
        points.removeAll(keepingCapacity: true)
        let area = Double(layout.width * layout.height)
        let step = max(2, Int((area / Double(Self.latticeSize)).squareRoot().rounded()))
        let cell = step * Self.cellSteps
        // One pixel clear of the edge, for the central differences.
        for cellTop in stride(from: 1, to: layout.height - 1, by: cell) {
            for cellLeft in stride(from: 1, to: layout.width - 1, by: cell) {
                best.removeAll(keepingCapacity: true)
                for row in stride(from: cellTop + step / 2, to: min(cellTop + cell, layout.height - 1), by: step) {
                    let rowStart = row * layout.bytesPerRow
                    for column in stride(from: cellLeft + step / 2, to: min(cellLeft + cell, layout.width - 1), by: step) {
                        let index = rowStart + column
                        let strength = Int(ScalarBytes.absoluteDifference(frame[index + 1], frame[index - 1]))
                            + Int(ScalarBytes.absoluteDifference(frame[index + layout.bytesPerRow], frame[index - layout.bytesPerRow]))
                        if strength >= Self.leastGradient { keep(strength: strength, column: column, row: row) }
                    }
                }
                for candidate in best { add(column: candidate.column, row: candidate.row, frame: frame, layout: layout) }
            }
        }
    }

    /// Keeps a candidate if it is among the cell's strongest so far.
    private mutating func keep(strength: Int, column: Int, row: Int) {
        if best.count == Self.pointsPerCell {
            guard strength > best[best.count - 1].strength else { return }
            best.removeLast()
        }
        let position = best.firstIndex { $0.strength < strength } ?? best.endIndex
        best.insert((strength, column, row), at: position)
    }

    private mutating func add(column: Int, row: Int, frame: Span<UInt8>, layout: PlaneLayout) {
        let index = row * layout.bytesPerRow + column
        points.append(
            Point(
                column: column, row: row, value: Double(frame[index]),
                gradientX: (Double(frame[index + 1]) - Double(frame[index - 1])) / 2,
                gradientY: (Double(frame[index + layout.bytesPerRow]) - Double(frame[index - layout.bytesPerRow])) / 2))
    }
}
