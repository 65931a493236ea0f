/// A small image with coverage, made once when a scene is built (leaves, a banner's
/// lettering) and sampled with bilinear interpolation at any scene offset.
struct Texture: Sendable {
    let width: Int
    let height: Int
    /// Grey level per texel.
    private(set) var levels: [Float]
    /// Coverage per texel, 0…1 (0 lets the background through).
    private(set) var coverage: [Float]

    init(width: Int, height: Int, level: Float = 0, coverage: Float = 0) {
        self.width = width
        self.height = height
        levels = [Float](repeating: level, count: width * height)
        self.coverage = [Float](repeating: coverage, count: width * height)
    }

    /// Paints a soft-edged ellipse into the texture (texel centres at +0.5).
    mutating func fillEllipse(center: SIMD2<Double>, radii: SIMD2<Double>, level: Float) {
        let columns = max(0, Int(center.x - radii.x - 1))..<min(width, Int(center.x + radii.x + 2))
        let rows = max(0, Int(center.y - radii.y - 1))..<min(height, Int(center.y + radii.y + 2))
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let meanRadius = (radii.x + radii.y) / 2
        for row in rows {
            for column in columns {
                let dx = (Double(column) + 0.5 - center.x) / radii.x
                let dy = (Double(row) + 0.5 - center.y) / radii.y
                // Distance to the edge in pixels, approximately, for a one-pixel soft edge.
                let distance = ((dx * dx + dy * dy).squareRoot() - 1) * meanRadius
                let alpha = Float(max(0, min(1, 0.5 - distance)))
                guard alpha > 0 else { continue }
                let index = row * width + column
                levels[index] += (level - levels[index]) * alpha
                coverage[index] += (1 - coverage[index]) * alpha
            }
        }
    }

    /// Sets every texel of a rectangle (whole texels) to `level`, fully covered.
    mutating func fillRect(columns: Range<Int>, rows: Range<Int>, level: Float) {
        for row in rows.clamped(to: 0..<height) {
            for column in columns.clamped(to: 0..<width) {
                levels[row * width + column] = level
                coverage[row * width + column] = 1
            }
        }
    }

    /// Coverage and level at texture point (u, v) (texel centres at +0.5), bilinear.
    /// With `wrapX` the texture repeats horizontally; otherwise outside is empty.
    @inline(__always)
    func sample(u: Double, v: Double, wrapX: Bool) -> (coverage: Float, level: Float) {
        let x = u - 0.5
        let y = v - 0.5
        let baseX = x.rounded(.down)
        let baseY = y.rounded(.down)
        let fx = Float(x - baseX)
        let fy = Float(y - baseY)
        var c0 = Int(baseX)
        var c1 = c0 + 1
        let r0 = Int(baseY)
        let r1 = r0 + 1
        if wrapX {
            c0 = ((c0 % width) + width) % width
            c1 = c0 + 1 == width ? 0 : c0 + 1
        }
        var alpha: Float = 0
        var light: Float = 0
        func add(_ column: Int, _ row: Int, _ weight: Float) {
            guard weight > 0, column >= 0, column < width, row >= 0, row < height else { return }
            let index = row * width + column
            alpha += coverage[index] * weight
            light += coverage[index] * levels[index] * weight
        }
        add(c0, r0, (1 - fx) * (1 - fy))
        add(c1, r0, fx * (1 - fy))
        add(c0, r1, (1 - fx) * fy)
        add(c1, r1, fx * fy)
        // Light is premultiplied by coverage: divide it out for the painter.
        return (alpha, alpha > 0 ? light / alpha : 0)
    }
}
