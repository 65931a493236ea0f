/// What a video is, as `trajectories info` prints it: read from the container and the
/// stream's codec parameters when the video is opened, before any frame is decoded.
public struct VideoInfo: Sendable, Hashable, Codable {
    /// Where a frame count comes from.
    public enum FrameCountSource: String, Sendable, Hashable, Codable {
        /// The container states it (MP4 and MOV list every frame); a damaged file may still hold fewer.
        case container
        /// Duration × frame rate, for containers that do not say (Matroska, MPEG-TS, GIF).
        case estimate
        /// Neither the count nor the duration is known (a live stream, a pipe).
        case unknown
    }

    /// The file, URL or `-` as the caller named it.
    public var uri: String
    /// The displayed width in pixels, after the display rotation.
    public var width: Int
    /// The displayed height in pixels, after the display rotation.
    public var height: Int
    /// Frames per second: the stream's average frame rate, or FFmpeg's guess at its base rate
    /// when the container gives no average; 0 when neither is known.
    public var frameRate: Double
    /// The number of frames, as far as is known before decoding; see ``frameCountSource``.
    public var frameCount: Int
    /// Whether ``frameCount`` is the container's figure, an estimate, or unknown (then 0).
    public var frameCountSource: FrameCountSource
    /// Length in seconds; 0 when unknown.
    public var duration: Double
    /// FFmpeg's short name of the codec, e.g. `h264`, `hevc`, `gif`.
    public var codec: String
    /// FFmpeg's name of the decoded pixel format, e.g. `yuv420p`, `gbrp`, `yuv420p10le`.
    public var pixelFormat: String
    /// The display rotation applied to every frame, in degrees clockwise: 0, 90, 180 or 270.
    public var rotation: Int

    public init(
        uri: String, width: Int, height: Int, frameRate: Double, frameCount: Int,
        frameCountSource: FrameCountSource, duration: Double, codec: String, pixelFormat: String, rotation: Int
    ) {
        self.uri = uri
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.frameCountSource = frameCountSource
        self.duration = duration
        self.codec = codec
        self.pixelFormat = pixelFormat
        self.rotation = rotation
    }

    /// The size at which a frame stored `width` × `height` is shown once turned by `rotation`
    /// degrees: a quarter turn swaps the sides.
    static func displayedSize(width: Int, height: Int, rotation: Int) -> (width: Int, height: Int) {
        rotation == 90 || rotation == 270 ? (height, width) : (width, height)
    }
}

/// A frame rate as an exact fraction, so 29.97 fps is 30000/1001 and timestamps do not drift.
public struct FrameRate: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// Frames…
    public var frames: Int
    /// …per this many seconds.
    public var seconds: Int

    /// `frames` frames every `seconds` seconds, e.g. `FrameRate(frames: 30000, seconds: 1001)`.
    public init(frames: Int, seconds: Int = 1) {
        self.frames = frames
        self.seconds = seconds
    }

    public init(integerLiteral value: Int) {
        self.init(frames: value)
    }

    /// NTSC's 29.97 fps.
    public static let ntsc = FrameRate(frames: 30000, seconds: 1001)

    /// Frames per second as a decimal.
    public var perSecond: Double { Double(frames) / Double(seconds) }

    public var description: String { seconds == 1 ? "\(frames) fps" : "\(frames)/\(seconds) fps" }
}
