/// Smooth 2-D value noise: random values on a square lattice of `cell` pixels, joined by
/// smoothstep-weighted bilinear interpolation. Summed over a few cell sizes it gives the
/// mild, natural-looking texture of grass, walls or foliage. It tiles: the lattice repeats
/// every `columns` × `rows` cells, so it can be sampled anywhere (also stretched).
struct LatticeNoise: Sendable {
    private let cell: Double
    private let columns: Int
    private let rows: Int
    private let values: [Float]

    /// Noise whose tile covers at least `width` × `height` scene pixels.
    init(key: UInt64, cell: Double, width: Double, height: Double) {
        precondition(cell > 0 && width > 0 && height > 0)
        self.cell = cell
        columns = Int((width / cell).rounded(.up)) + 1
        rows = Int((height / cell).rounded(.up)) + 1
        values = (0..<(columns * rows)).map { Float(Hashing.signedUnit(key, $0)) }
    }

    /// The noise at (x, y), in [-1, 1).
    @inline(__always)
    func value(x: Double, y: Double) -> Float {
        let u = x / cell
        let v = y / cell
        let baseU = u.rounded(.down)
        let baseV = v.rounded(.down)
        let fx = Float(u - baseU)
        let fy = Float(v - baseV)
        let i0 = Self.wrap(Int(baseU), columns)
        let i1 = i0 + 1 == columns ? 0 : i0 + 1
        let j0 = Self.wrap(Int(baseV), rows) * columns
        let j1 = (j0 + columns == values.count ? 0 : j0 + columns)
        let sx = fx * fx * (3 - 2 * fx)
        let sy = fy * fy * (3 - 2 * fy)
        let top = values[j0 + i0] + (values[j0 + i1] - values[j0 + i0]) * sx
        let bottom = values[j1 + i0] + (values[j1 + i1] - values[j1 + i0]) * sx
        return top + (bottom - top) * sy
    }

    @inline(__always)
    private static func wrap(_ index: Int, _ count: Int) -> Int {
        let r = index % count
        return r < 0 ? r + count : r
    }
}
