/// The still background of a scene: what the camera sees behind every moving thing.
///
/// A backdrop is a description (style, seed, levels); the renderer turns it into pixels once
/// per clip, slightly larger than the frame so that a shaking camera never sees its edge.
public struct Backdrop: Sendable, Hashable {
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// Outdoors: sky, a tree line at the horizon, a mown grass pitch with white lines
        /// and advertising boards along its far side.
        case field
        /// Indoors: a panelled wall, a skirting board, a wooden floor with court lines.
        case gym
    }

    public var style: Style
    public var seed: UInt64
    /// Where sky (or wall) meets ground (or floor), as a fraction of the frame height.
    public var horizon: Double
    /// Grey level of the sky or wall.
    public var upperLevel: Float
    /// Grey level of the grass or floor.
    public var lowerLevel: Float
    /// Strength of the texture, in grey levels (the typical swing of the finest detail).
    public var texture: Float

    public init(style: Style, seed: UInt64, horizon: Double, upperLevel: Float, lowerLevel: Float, texture: Float = 6) {
        precondition(horizon > 0 && horizon < 1, "the horizon lies inside the frame")
        self.style = style
        self.seed = seed
        self.horizon = horizon
        self.upperLevel = upperLevel
        self.lowerLevel = lowerLevel
        self.texture = texture
    }

    /// The backdrop's light for a `width` × `height` frame plus `margin` pixels on every
    /// side: row-major, (width + 2·margin) values per row. Pixel (i, j) of the result shows
    /// the scene pixel (i − margin, j − margin).
    func rasterize(width: Int, height: Int, margin: Int) -> [Float] {
        let painter = BackdropPainter(backdrop: self, width: Double(width), height: Double(height), margin: Double(margin))
        let fullWidth = width + 2 * margin
        let fullHeight = height + 2 * margin
        var raster = [Float](repeating: 0, count: fullWidth * fullHeight)
        raster.withUnsafeMutableBufferPointer { buffer in
            for j in 0..<fullHeight {
                let y = Double(j - margin) + 0.5
                for i in 0..<fullWidth {
                    buffer[j * fullWidth + i] = painter.level(x: Double(i - margin) + 0.5, y: y)
                }
            }
        }
        return raster
    }
}

/// Computes one backdrop's light at any scene point: the layout of `Backdrop.Style` with
/// its noise fields prepared.
private struct BackdropPainter {
    let backdrop: Backdrop
    let width: Double
    let height: Double
    let horizonY: Double
    let coarse: LatticeNoise
    let medium: LatticeNoise
    let fine: LatticeNoise
    let grain: LatticeNoise
    /// Height of the tree line above the horizon for each backdrop column (from x = −margin).
    let treeHeights: [Double]
    /// Static field furniture: x of the far end of a perspective line, and board widths.
    let sidelineTopX: Double
    let boardWidth: Double

    init(backdrop: Backdrop, width: Double, height: Double, margin: Double) {
        self.backdrop = backdrop
        self.width = width
        self.height = height
        horizonY = backdrop.horizon * height
        let w = width + 2 * margin
        let h = height + 2 * margin
        let key = backdrop.seed
        // Lattice noise starts at the origin; sample it at (x + margin, y + margin).
        coarse = LatticeNoise(key: Hashing.hash(key, 1), cell: 160, width: w, height: h)
        medium = LatticeNoise(key: Hashing.hash(key, 2), cell: 24, width: w, height: h)
        fine = LatticeNoise(key: Hashing.hash(key, 3), cell: 5, width: w, height: h)
        grain = LatticeNoise(key: Hashing.hash(key, 4), cell: 1.7, width: w, height: h)
        treeHeights = Self.treeLine(key: Hashing.hash(key, 5), columns: Int(w.rounded(.up)), height: height)
        sidelineTopX = width * (0.25 + 0.5 * (Hashing.signedUnit(key, 6) + 1) / 2)
        boardWidth = 90 + 60 * (Hashing.signedUnit(key, 7) + 1) / 2
        self.margin = margin
    }

    let margin: Double

    /// A row of rounded tree crowns of random width and height over a low hedge.
    private static func treeLine(key: UInt64, columns: Int, height: Double) -> [Double] {
        var heights = [Double](repeating: 0.015 * height, count: columns)
        var centre = 0.0
        var index = 0
        while centre < Double(columns) + 40 {
            let unit = { (salt: Int) in (Hashing.signedUnit(key, index * 4 + salt) + 1) / 2 }
            let halfWidth = 10 + 26 * unit(0)
            let crown = height * (0.025 + 0.045 * unit(1) * unit(2))
            let first = max(0, Int(centre - halfWidth))
            let last = min(columns - 1, Int(centre + halfWidth))
            if first <= last {
                for column in first...last {
                    let u = (Double(column) - centre) / halfWidth
                    heights[column] = max(heights[column], crown * max(0, 1 - u * u).squareRoot())
                }
            }
            centre += halfWidth * (0.6 + 0.8 * unit(3))
            index += 1
        }
        return heights
    }

    func level(x: Double, y: Double) -> Float {
        switch backdrop.style {
        case .field: return field(x: x, y: y)
        case .gym: return gym(x: x, y: y)
        }
    }

    private func noise(_ lattice: LatticeNoise, _ x: Double, _ y: Double) -> Float {
        lattice.value(x: x + margin, y: y + margin)
    }

    private func field(x: Double, y: Double) -> Float {
        let t = backdrop.texture
        let treeHeight = treeHeights[max(0, min(treeHeights.count - 1, Int(x + margin)))]
        let boardHeight = height * 0.035
        if y < horizonY - treeHeight {
            // Sky: brighter towards the horizon, soft clouds.
            let towardsHorizon = Float(max(0, y) / horizonY)
            return backdrop.upperLevel - 14 + 20 * towardsHorizon + 0.8 * t * noise(coarse, x * 1.5, y * 3)
        }
        if y < horizonY {
            // Tree line: dark, leafy texture.
            return backdrop.upperLevel * 0.38 + 1.6 * t * noise(fine, x, y) + t * noise(medium, x, y)
        }
        if y < horizonY + boardHeight {
            // Advertising boards along the far touchline: alternating panels.
            let panel = Int(((x + 1000) / boardWidth).rounded(.down))
            let bright = Hashing.signedUnit(backdrop.seed ^ 0xB0A2D, panel)
            let rim = min(y - horizonY, horizonY + boardHeight - y) < 1.5 ? Float(-25) : 0
            return backdrop.lowerLevel + 40 * Float(bright) + rim + 0.4 * t * noise(grain, x, y)
        }
        // Grass: mown stripes that widen towards the camera, patches and blades.
        let depth = (y - horizonY) / (height - horizonY)
        let stripeIndex = Int((9 * PortableMath.log(1 + 12 * max(depth, 0.0001))).rounded(.down))
        let stripe: Float = stripeIndex % 2 == 0 ? 5 : -5
        let nearness = Float(0.4 + 0.6 * min(1, depth))
        var level = backdrop.lowerLevel + stripe + 1.5 * t * noise(coarse, x, y)
            + t * noise(medium, x, y * 2) + nearness * (t * noise(fine, x, y) + 0.8 * t * noise(grain, x, y))
        level += 95 * lineCoverage(x: x, y: y, depth: depth)
        return level
    }

    /// How much of the pixel at (x, y) is painted pitch line: a touchline parallel to the
    /// horizon and a sideline converging towards it.
    private func lineCoverage(x: Double, y: Double, depth: Double) -> Float {
        let halfWidth = 0.6 + 2.2 * depth
        let touchlineY = horizonY + 0.18 * (height - horizonY)
        var coverage = max(0, min(1, halfWidth + 0.5 - abs(y - touchlineY)))
        if y > touchlineY {
            // From (sidelineTopX, touchline) down to the bottom edge, leaning outwards.
            let s = (y - touchlineY) / (height - touchlineY)
            let lineX = sidelineTopX + s * (sidelineTopX - width / 2) * 0.9
            coverage = max(coverage, max(0, min(1, halfWidth + 0.5 - abs(x - lineX))))
        }
        return Float(coverage)
    }

    private func gym(x: Double, y: Double) -> Float {
        let t = backdrop.texture
        if y < horizonY - 14 {
            // Painted wall: panel seams, a gentle light gradient from the ceiling lamps.
            let panelWidth = width / 7
            let seamDistance = abs(x - (x / panelWidth).rounded() * panelWidth)
            let seam: Float = seamDistance < 1.2 ? -18 : 0
            let lamp = Float(max(0, 1 - y / horizonY)) * 10
            return backdrop.upperLevel + lamp + seam + 0.6 * t * noise(coarse, x, y)
                + 0.5 * t * noise(grain, x, y)
        }
        if y < horizonY {
            // Skirting board.
            return backdrop.upperLevel * 0.45 + 0.5 * t * noise(grain, x, y)
        }
        // Wooden floor: planks that narrow with distance, grain stretched along them,
        // a reflection of the lamps, court lines.
        let depth = (y - horizonY) / (height - horizonY)
        let plankIndex = (PortableMath.log(1 + 30 * depth) * 11).rounded(.down)
        let plankPhase = PortableMath.log(1 + 30 * depth) * 11 - plankIndex
        let seam: Float = plankPhase < 0.08 ? -12 : 0
        let plankTone = 6 * Float(Hashing.signedUnit(backdrop.seed ^ 0x9A4C, Int(plankIndex)))
        let woodGrain = t * noise(medium, x * 0.15, y * 4) + 0.6 * t * noise(fine, x * 0.3, y * 3)
        let reflection = Float(max(0, 1 - abs(x - width / 2) / (width * 0.45))) * Float(1 - depth) * 14
        var level = backdrop.lowerLevel + plankTone + seam + woodGrain + reflection
        let courtLineY = horizonY + 0.3 * (height - horizonY)
        let halfWidth = 0.8 + 2 * depth
        level += 70 * Float(max(0, min(1, halfWidth + 0.5 - abs(y - courtLineY))))
        return level
    }
}
