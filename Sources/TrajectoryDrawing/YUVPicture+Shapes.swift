import TrajectoryKit

/// Simple solid shapes, in pixel coordinates (top-left origin, pixel (i, j) centred at
/// (i + 0.5, j + 0.5)). Everything is clipped to the picture, so shapes may stick out of it.
extension YUVPicture {
    /// Fills the disc of `radius` pixels around `centre`.
    public mutating func fillDisc(centre: PixelPoint, radius: Double, _ colour: YUVColour) {
        guard centre.x.isFinite, centre.y.isFinite, radius > 0 else { return }
        let top = Int((centre.y - radius).rounded(.down)), bottom = Int((centre.y + radius).rounded(.up))
        guard bottom >= 0, top < height else { return }
        for row in max(0, top)..<min(height, bottom + 1) {
            let dy = Double(row) + 0.5 - centre.y
            let squared = radius * radius - dy * dy
            guard squared >= 0 else { continue }
            let half = squared.squareRoot()
            // Pixels whose centre lies within the disc.
            let first = Int((centre.x - half - 0.5).rounded(.up)), last = Int((centre.x + half - 0.5).rounded(.down))
            paintRow(y: row, from: first, to: last + 1, colour)
        }
    }

    /// Draws the segment from `start` to `end`, `width` pixels wide with round ends.
    public mutating func strokeLine(from start: PixelPoint, to end: PixelPoint, width: Double, _ colour: YUVColour) {
        guard let (start, end) = clip(start, end, margin: width) else { return }
        let dx = end.x - start.x, dy = end.y - start.y
        // A disc every half pixel along the segment covers it without gaps.
        let steps = max(1, Int((2 * max(abs(dx), abs(dy))).rounded(.up)))
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            fillDisc(centre: PixelPoint(x: start.x + t * dx, y: start.y + t * dy), radius: width / 2, colour)
        }
    }

    /// Draws straight segments through `points` in order.
    public mutating func strokePolyline(_ points: some Collection<PixelPoint>, width: Double, _ colour: YUVColour) {
        guard var previous = points.first else { return }
        if points.count == 1 {
            fillDisc(centre: previous, radius: width / 2, colour)
            return
        }
        for point in points.dropFirst() {
            strokeLine(from: previous, to: point, width: width, colour)
            previous = point
        }
    }

    /// Fills the pixels of `rect`.
    public mutating func fill(_ rect: PixelRect, _ colour: YUVColour) {
        for row in max(0, rect.minY)..<max(max(0, rect.minY), min(height, rect.maxY)) {
            paintRow(y: row, from: rect.minX, to: rect.maxX, colour)
        }
    }

    /// Draws the outline of `rect`, `thickness` pixels wide, inside it.
    public mutating func strokeRectangle(_ rect: PixelRect, thickness: Int, _ colour: YUVColour) {
        let band = max(1, thickness)
        fill(PixelRect(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.minY + band), colour)
        fill(PixelRect(minX: rect.minX, minY: rect.maxY - band, maxX: rect.maxX, maxY: rect.maxY), colour)
        fill(PixelRect(minX: rect.minX, minY: rect.minY, maxX: rect.minX + band, maxY: rect.maxY), colour)
        fill(PixelRect(minX: rect.maxX - band, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY), colour)
    }

    /// The part of the segment within the picture grown by `margin` on every side
    /// (Liang–Barsky), or nil when none is: keeps a wild point far outside from costing work.
    private func clip(_ start: PixelPoint, _ end: PixelPoint, margin: Double) -> (PixelPoint, PixelPoint)? {
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { return nil }
        let dx = end.x - start.x, dy = end.y - start.y
        var low = 0.0, high = 1.0
        // One edge: the part where p·t ≤ q is inside. (A function, not an array of edges:
        // nothing is allocated per segment.)
        func keep(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 { low = max(low, t) } else { high = min(high, t) }
            return low <= high
        }
        guard keep(-dx, start.x + margin), keep(dx, Double(width) + margin - start.x),
              keep(-dy, start.y + margin), keep(dy, Double(height) + margin - start.y)
        else { return nil }
        return (PixelPoint(x: start.x + low * dx, y: start.y + low * dy),
                PixelPoint(x: start.x + high * dx, y: start.y + high * dy))
    }
}
