import CFFmpeg

extension VideoWriter {
    /// How grey frames are coded. Besides the everyday H.264, the writer can produce each kind
    /// of input the reader must convert, so tests can make them without the ffmpeg tool.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable {
        /// H.264 (libx264), 8-bit 4:2:0, full range: what cameras and phones record. The
        /// reader lends its luma plane without copying.
        case h264
        /// H.264 High 10 (libx264), 10-bit 4:2:0, full range. Decodes as `yuv420p10le`, which
        /// the reader converts to 8 bits.
        case h264TenBit
        /// H.264 in RGB (libx264rgb). Decodes as planar RGB (`gbrp`), which the reader converts.
        case h264RGB
        /// Animated GIF with 256 grey levels. FFmpeg decodes GIF to `bgra`, which the reader
        /// converts. Needs a `.gif` file; GIF counts time in hundredths of a second.
        case gif
        /// PNG pictures with a 256-grey palette (lossless). Decodes as `pal8`, which the reader
        /// converts. Needs a container that holds PNG, such as `.mov` or `.nut`.
        case pngPaletted

        /// The FFmpeg encoder that writes it.
        var encoderName: String {
            switch self {
            case .h264, .h264TenBit: "libx264"
            case .h264RGB: "libx264rgb"
            case .gif: "gif"
            case .pngPaletted: "png"
            }
        }

        /// The pixel format handed to the encoder.
        var pixelFormat: AVPixelFormat {
            switch self {
            case .h264: AV_PIX_FMT_YUV420P
            case .h264TenBit: AV_PIX_FMT_YUV420P10LE
            case .h264RGB: AV_PIX_FMT_BGR24
            case .gif, .pngPaletted: AV_PIX_FMT_PAL8
            }
        }

        /// Whether it stores luma and chroma, so a range must be declared (we write full range:
        /// grey level 0 is black, 255 white, as in `LumaImage`).
        var isYUV: Bool { self == .h264 || self == .h264TenBit }

        /// Whether `crf` and `preset` apply.
        var usesX264Settings: Bool { encoderName.hasPrefix("libx264") }

        /// 4:2:0 chroma covers 2 × 2 pixels, so x264 needs even sizes.
        var needsEvenSize: Bool { isYUV }
    }

    /// How the writer codes and stores the video.
    public struct Settings: Sendable, Hashable {
        /// The codec and pixel format; ``Format/h264`` by default.
        public var format: Format
        /// Frames per second, exact: 30, 60, ``FrameRate/ntsc``, …
        public var frameRate: FrameRate
        /// x264's constant rate factor, 0 (lossless) … 51; 18 is visually lossless. H.264 only.
        public var crf: Int
        /// x264's speed preset, `ultrafast` … `veryslow`. H.264 only.
        public var preset: String
        /// Display rotation to record, in degrees clockwise (0, 90, 180, 270): players and the
        /// reader turn each picture by this much before showing it.
        public var rotation: Int
        /// Move an MP4's or MOV's index to the front, so it can be read while it streams in
        /// (from a pipe, over HTTP). Ignored for other containers.
        public var fastStart: Bool
        /// FFmpeg's name of the container (`mp4`, `matroska`, `gif`, `mpegts`, …), or nil to
        /// pick it from the file's extension. Needed when writing to a URL such as `pipe:1`.
        public var container: String?

        public init(
            format: Format = .h264, frameRate: FrameRate = 30, crf: Int = 18, preset: String = "medium",
            rotation: Int = 0, fastStart: Bool = true, container: String? = nil
        ) {
            self.format = format
            self.frameRate = frameRate
            self.crf = crf
            self.preset = preset
            self.rotation = rotation
            self.fastStart = fastStart
            self.container = container
        }

        /// The first reason these settings cannot make a `width` × `height` video, if any.
        func problem(width: Int, height: Int) -> String? {
            if width <= 0 || height <= 0 || width > 16384 || height > 16384 {
                return "a frame of \(width)×\(height) pixels is not possible"
            }
            if format.needsEvenSize && (width % 2 != 0 || height % 2 != 0) {
                return "\(format.rawValue) needs an even width and height, not \(width)×\(height)"
            }
            if frameRate.frames <= 0 || frameRate.seconds <= 0 {
                return "the frame rate \(frameRate.frames)/\(frameRate.seconds) is not positive"
            }
            if ![0, 90, 180, 270].contains(rotation) {
                return "the rotation must be 0, 90, 180 or 270 degrees, not \(rotation)"
            }
            if format.usesX264Settings && !(0...51).contains(crf) {
                return "crf must be in 0…51, not \(crf)"
            }
            return nil
        }
    }
}
