/// A point in Vision's normalized image space: x and y in [0, 1] of the full frame,
/// origin at the bottom left, y up.
public struct NormalizedPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A point in pixels of the full frame: origin at the top left, y down.
/// Pixel (i, j) covers [i, i+1) × [j, j+1), so its centre is (i + 0.5, j + 0.5).
public struct PixelPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The same place in Vision's normalized space (bottom-left origin).
    public func normalized(width: Int, height: Int) -> NormalizedPoint {
        NormalizedPoint(x: x / Double(width), y: 1 - y / Double(height))
    }
    /// How far `other` is, in pixels.
    func distance(to other: PixelPoint) -> Double {
        let (dx, dy) = (x - other.x, y - other.y)
        return (dx * dx + dy * dy).squareRoot()
    }
}

extension NormalizedPoint {
    /// The same place in pixels, top-left origin.
    public func pixels(width: Int, height: Int) -> PixelPoint {
        PixelPoint(x: x * Double(width), y: (1 - y) * Double(height))
    }
}

/// A rectangle in normalized image space, origin at the bottom left (Vision's `regionOfInterest`).
public struct NormalizedRect: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// The whole frame, Vision's default region of interest.
    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle has a positive size and lies inside the unit square
    /// (with a little slack for rounding in user input).
    public var isValidRegionOfInterest: Bool {
        let slack = 1e-9
        return width > 0 && height > 0 && x >= -slack && y >= -slack
            && x + width <= 1 + slack && y + height <= 1 + slack
    }

    public func contains(_ point: NormalizedPoint) -> Bool {
        point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
    }

    /// The pixel columns and rows this rectangle covers in a `width` × `height` frame,
    /// rounded outwards, in top-left-origin pixel coordinates.
    public func pixelBounds(width frameWidth: Int, height frameHeight: Int) -> PixelRect {
        let left = max(0, Int((x * Double(frameWidth)).rounded(.down)))
        let right = min(frameWidth, Int(((x + width) * Double(frameWidth)).rounded(.up)))
        let top = max(0, Int(((1 - y - height) * Double(frameHeight)).rounded(.down)))
        let bottom = min(frameHeight, Int(((1 - y) * Double(frameHeight)).rounded(.up)))
        return PixelRect(minX: left, minY: top, maxX: max(left, right), maxY: max(top, bottom))
    }
}

/// A half-open rectangle of whole pixels, top-left origin: columns minX..<maxX, rows minY..<maxY.
public struct PixelRect: Sendable, Hashable {
    public var minX: Int
    public var minY: Int
    public var maxX: Int
    public var maxY: Int

    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Int { maxX - minX }
    public var height: Int { maxY - minY }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}
