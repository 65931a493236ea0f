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
        /// The grey level.
        var level: UInt8
        var gradientX: Double
        var gradientY: Double
        /// The gradient's squared length and length, which every iteration of a fit weighs by.
        var gradientSquared: Double
        var gradientLength: Double

        init(column: Int, row: Int, level: UInt8, gradientX: Double, gradientY: Double) {
            self.column = column
            self.row = row
            self.level = level
            self.gradientX = gradientX
            self.gradientY = gradientY
            gradientSquared = gradientX * gradientX + gradientY * gradientY
            gradientLength = gradientSquared.squareRoot()
        }
    }

    /// About this many lattice pixels are looked at per frame, whatever its size (a pixel in
    /// six in each direction at 720p).
    static let latticeSize = 30_000
    /// A cell is this many lattice steps on each side, and gives at most three points
    /// (``StrongestCandidates``; 1 200 or so at 720p).
    static let cellSteps = 8
    /// A pixel whose |∂x| + |∂y| (grey levels over two pixels) is below this is too flat to tell
    /// a shift from noise.
    static let leastGradient = 6

    private(set) var points: [Point] = []
    /// The layout of the frame the points were chosen in.
    private(set) var layout: PlaneLayout?

    /// Chooses the points of `frame`.
    mutating func choose(in frame: Span<UInt8>, layout: PlaneLayout) {
        points.removeAll(keepingCapacity: true)
        self.layout = layout
        let area = Double(layout.width * layout.height)
        let step = max(2, Int((area / Double(Self.latticeSize)).squareRoot().rounded()))
        let cell = step * Self.cellSteps
        // One pixel clear of the edge, for the central differences.
        for cellTop in stride(from: 1, to: layout.height - 1, by: cell) {
            for cellLeft in stride(from: 1, to: layout.width - 1, by: cell) {
                var best = StrongestCandidates()
                for row in stride(from: cellTop + step / 2, to: min(cellTop + cell, layout.height - 1), by: step) {
                    let rowStart = row * layout.bytesPerRow
                    for column in stride(from: cellLeft + step / 2, to: min(cellLeft + cell, layout.width - 1), by: step) {
                        let index = rowStart + column
                        let strength = Int(ScalarBytes.absoluteDifference(frame[index + 1], frame[index - 1]))
                            + Int(ScalarBytes.absoluteDifference(frame[index + layout.bytesPerRow], frame[index - layout.bytesPerRow]))
                        if strength > best.third.strength { best.keep(Candidate(strength: strength, column: column, row: row)) }
                    }
                }
                best.forEach { add(column: $0.column, row: $0.row, frame: frame, layout: layout) }
            }
        }
    }

    /// Keeps the points where they are and reads their grey levels and gradients again from
    /// `frame`, the same size as the one they were chosen in: for a still camera, whose
    /// background, and so its strongest edges, stay where they were.
    mutating func reread(from frame: Span<UInt8>) {
        guard let layout else { preconditionFailure("points are reread only after they were chosen") }
        for index in points.indices {
            points[index] = Self.point(column: points[index].column, row: points[index].row, frame: frame, layout: layout)
        }
    }

    private struct Candidate {
        var strength: Int
        var column = 0, row = 0
    }

    /// The three strongest candidates of the cell being scanned, strongest first; a
    /// slot not filled yet holds a strength just below ``leastGradient``, which any candidate
    /// worth keeping beats. Three plain slots rather than an array: every lattice pixel is
    /// tested against the weakest.
    private struct StrongestCandidates {
        var first = Candidate(strength: leastGradient - 1)
        var second = Candidate(strength: leastGradient - 1)
        var third = Candidate(strength: leastGradient - 1)

        /// Calls `body` with each candidate kept, strongest first.
        func forEach(_ body: (Candidate) -> Void) {
            // Slots fill in order, so an empty one is followed only by empty ones.
            guard first.strength >= leastGradient else { return }
            body(first)
            guard second.strength >= leastGradient else { return }
            body(second)
            guard third.strength >= leastGradient else { return }
            body(third)
        }

        /// Takes `candidate`, stronger than `third`, into its place; ties keep the earlier one first.
        mutating func keep(_ candidate: Candidate) {
            if candidate.strength > first.strength {
                (first, second, third) = (candidate, first, second)
            } else if candidate.strength > second.strength {
                (second, third) = (candidate, second)
            } else {
                third = candidate
            }
        }
    }

    private mutating func add(column: Int, row: Int, frame: Span<UInt8>, layout: PlaneLayout) {
        points.append(Self.point(column: column, row: row, frame: frame, layout: layout))
    }

    private static func point(column: Int, row: Int, frame: Span<UInt8>, layout: PlaneLayout) -> Point {
        let index = row * layout.bytesPerRow + column
        return Point(
            column: column, row: row, level: frame[index],
            gradientX: (Double(frame[index + 1]) - Double(frame[index - 1])) / 2,
            gradientY: (Double(frame[index + layout.bytesPerRow]) - Double(frame[index - layout.bytesPerRow])) / 2)
    }
}
