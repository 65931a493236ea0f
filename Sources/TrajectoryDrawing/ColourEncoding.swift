/// One pixel's luma and chroma samples.
public struct YUVColour: Sendable, Hashable {
    public var y: UInt8
    public var cb: UInt8
    public var cr: UInt8

    public init(y: UInt8, cb: UInt8, cr: UInt8) {
        self.y = y
        self.cb = cb
        self.cr = cr
    }
}

/// An 8-bit RGB colour.
public struct RGBColour: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// How a video's YUV samples map to RGB: the matrix and whether the samples use the full
/// 0…255 range or the "video" range (luma 16…235, chroma 16…240).
public struct ColourEncoding: Sendable, Hashable {
    public enum Matrix: Sendable, Hashable {
        /// ITU-R BT.601: standard definition, and what untagged video is taken to be.
        case bt601
        /// ITU-R BT.709: HD.
        case bt709

        /// The luma weights of red and blue (green's is what is left).
        var weights: (red: Double, blue: Double) {
            switch self {
            case .bt601: (0.299, 0.114)
            case .bt709: (0.2126, 0.0722)
            }
        }
    }

    public var matrix: Matrix
    public var fullRange: Bool

    public init(matrix: Matrix, fullRange: Bool) {
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// BT.601, video range: what most decoders produce when a file says nothing.
    public static let standardDefinition = ColourEncoding(matrix: .bt601, fullRange: false)

    /// The samples of an RGB colour.
    public func yuv(red: UInt8, green: UInt8, blue: UInt8) -> YUVColour {
        let (kr, kb) = matrix.weights
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let luma = kr * r + (1 - kr - kb) * g + kb * b
        let blueDifference = (b - luma) / (2 * (1 - kb))  // −½ … ½
        let redDifference = (r - luma) / (2 * (1 - kr))
        let (lumaScale, lumaOffset, chromaScale) = fullRange ? (255.0, 0.0, 255.0) : (219.0, 16.0, 224.0)
        return YUVColour(
            y: Self.byte(lumaOffset + lumaScale * luma),
            cb: Self.byte(128 + chromaScale * blueDifference),
            cr: Self.byte(128 + chromaScale * redDifference))
    }

    public func yuv(_ colour: RGBColour) -> YUVColour {
        yuv(red: colour.red, green: colour.green, blue: colour.blue)
    }

    /// The RGB colour of `sample`, the inverse of ``yuv(red:green:blue:)`` (clamped).
    public func rgb(_ sample: YUVColour) -> RGBColour {
        let (kr, kb) = matrix.weights
        let (lumaScale, lumaOffset, chromaScale) = fullRange ? (255.0, 0.0, 255.0) : (219.0, 16.0, 224.0)
        let luma = (Double(sample.y) - lumaOffset) / lumaScale
        let blueDifference = (Double(sample.cb) - 128) / chromaScale
        let redDifference = (Double(sample.cr) - 128) / chromaScale
        let r = luma + 2 * (1 - kr) * redDifference
        let b = luma + 2 * (1 - kb) * blueDifference
        let g = (luma - kr * r - kb * b) / (1 - kr - kb)
        return RGBColour(red: Self.byte(255 * r), green: Self.byte(255 * g), blue: Self.byte(255 * b))
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
