/// How an 8-bit luma plane is laid out in memory: `height` rows of `width` bytes,
/// each row starting `bytesPerRow` bytes after the previous one.
public struct PlaneLayout: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var bytesPerRow: Int

    public init(width: Int, height: Int, bytesPerRow: Int) {
        precondition(width > 0 && height > 0, "a plane needs a positive size")
        precondition(bytesPerRow >= width, "bytesPerRow must be at least width")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    /// Bytes a buffer must hold for this layout (the last row need not be padded).
    public var minimumByteCount: Int { (height - 1) * bytesPerRow + width }
}

/// Where a frame sits in its video: the 0-based index of the decoded frame in presentation
/// order, and its presentation time in seconds.
public struct FrameStamp: Sendable, Hashable {
    public var index: Int
    public var time: Double

    public init(index: Int, time: Double) {
        self.index = index
        self.time = time
    }
}

/// An 8-bit grey image that owns its pixels, rows packed without padding.
/// The form in which frames made in memory (tests, the scene generator) reach the detector.
public struct LumaImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Row-major, `width` bytes per row, 0 = black, 255 = white.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "an image needs a positive size")
        precondition(pixels.count == width * height, "pixels must hold width × height bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one uniform grey level.
    public init(width: Int, height: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    public var layout: PlaneLayout { PlaneLayout(width: width, height: height, bytesPerRow: width) }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
