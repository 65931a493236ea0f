import CFFmpeg
import TrajectoryDrawing

/// Encodes colour pictures (``YUVPicture``) to a video file with the timestamps it is given,
/// so a processed copy of a video keeps the original's frame times.
///
/// Codes H.264 (libx264) when this FFmpeg has it, MPEG-4 Part 2 otherwise; the container is
/// picked from the file's extension. 4:2:0 needs an even size: a picture of odd width or
/// height is coded one pixel wider or taller, its last column or row repeated, so an overlay of
/// a 641 × 361 video is a 642 × 362 one with the same picture in it.
///
/// ```swift
/// var writer = try PictureVideoWriter(path: "out.mp4", width: 1280, height: 720, timing: reader.timing)
/// try writer.append(picture, timestamp: frame.timestamp)
/// try writer.finish()
/// ```
public struct PictureVideoWriter: ~Copyable {
    /// The file written.
    public let path: String
    /// The pictures' size.
    public let width: Int
    public let height: Int
    /// The coded size: the pictures' size rounded up to even numbers.
    public let codedWidth: Int
    public let codedHeight: Int
    /// FFmpeg's name of the encoder used: `libx264` or `mpeg4`.
    public let encoderName: String
    /// Frames appended so far.
    public private(set) var framesWritten = 0
    private let inputTimeBase: AVRational
    private var encoder: Encoder
    private var muxer: Muxer
    private var lastTimestamp: Int64?
    private let log: WarningLog

    /// Which codec to write.
    public enum Codec: Sendable, Hashable {
        /// H.264 when this FFmpeg has libx264, else MPEG-4.
        case automatic
        /// MPEG-4 Part 2 (FFmpeg's own encoder, always built in).
        case mpeg4
    }

    /// Creates `path` for `width` × `height` pictures whose timestamps count in `timing`'s
    /// time base, tagged with `encoding`'s range and matrix.
    /// - Parameters:
    ///   - codec: H.264 when available (the default), or MPEG-4.
    ///   - metadata: tags to store in the file.
    /// - Throws: ``VideoError`` when the size is not possible, no encoder is available, or the
    ///   file cannot be created.
    public init(
        path: String, width: Int, height: Int, timing: StreamTiming, encoding: ColourEncoding = .standardDefinition,
        codec preferred: Codec = .automatic, metadata: [String: String] = [:]
    ) throws(VideoError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw VideoError(.invalidSettings, uri: path, detail: "a video cannot be \(width)×\(height)")
        }
        let (codedWidth, codedHeight) = (width + width % 2, height + height % 2)
        guard timing.timeBase.numerator > 0, timing.timeBase.denominator > 0 else {
            throw VideoError(.invalidSettings, uri: path, detail: "the time base \(timing.timeBase) is not positive")
        }
        let log = WarningLog()
        let h264 = preferred == .automatic ? avcodec_find_encoder_by_name("libx264") : nil
        guard let codec = h264 ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4) else {
            throw VideoError(.noEncoder, uri: path, detail: "H.264 or MPEG-4")
        }
        let setup = Self.setup(for: codec, timing: timing, encoding: encoding)
        var muxer = try log.collecting { () throws(VideoError) in
            try Muxer(path: path, container: nil, codec: codec, log: log)
        }
        let globalHeader = muxer.wantsGlobalHeader
        let encoder = try log.collecting { () throws(VideoError) in
            try Encoder(
                codec: codec, width: codedWidth, height: codedHeight, setup: setup, globalHeader: globalHeader, path: path,
                log: log)
        }
        try log.collecting { () throws(VideoError) in
            try muxer.start(encoder: encoder.parameters, rotation: 0, fastStart: true, metadata: metadata)
        }
        self.path = path
        self.width = width
        self.height = height
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.encoderName = String(cString: codec.pointee.name)
        self.inputTimeBase = timing.timeBase.av
        self.encoder = encoder
        self.muxer = muxer
        self.log = log
    }

    /// x264 at a visually good rate factor and a fast preset; MPEG-4 at a fixed quantiser,
    /// in a time base it accepts (at most 65535 ticks a second).
    private static func setup(for codec: UnsafePointer<AVCodec>, timing: StreamTiming, encoding: ColourEncoding) -> EncoderSetup {
        let frameRate = timing.frameRate?.av ?? AVRational(num: 30, den: 1)
        var timeBase = timing.timeBase.av
        let isX264 = String(cString: codec.pointee.name) == "libx264"
        if !isX264 && timeBase.den > 65535 {
            timeBase = AVRational(num: 1, den: 60000)
        }
        var setup = EncoderSetup(pixelFormat: AV_PIX_FMT_YUV420P, timeBase: timeBase, frameRate: frameRate)
        setup.colourRange = encoding.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        setup.colourSpace = encoding.matrix == .bt709 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
        if isX264 {
            setup.options = [("preset", "veryfast"), ("crf", "20")]
        } else {
            setup.fixedQuality = 3
        }
        return setup
    }

    /// Encodes `picture` as the next frame at `timestamp` (in the time base given at creation;
    /// nil, or a time not after the previous frame's, becomes one tick after it).
    /// - Throws: ``VideoError`` if its size differs from the video's or writing fails.
    public mutating func append(_ picture: YUVPicture, timestamp: Int64?) throws(VideoError) {
        guard picture.width == width, picture.height == height else {
            throw VideoError(.invalidFrame, uri: path,
                             detail: "a \(picture.width)×\(picture.height) picture does not fit a \(width)×\(height) video")
        }
        let timeBase = encoder.timeBase
        var time = timestamp.map { av_rescale_q($0, inputTimeBase, timeBase) } ?? (lastTimestamp.map { $0 + 1 } ?? 0)
        if let lastTimestamp, time <= lastTimestamp { time = lastTimestamp + 1 }
        lastTimestamp = time
        try log.collecting { () throws(VideoError) in
            try encoder.encodeFrame(timestamp: time, filling: { frame in
                Self.copy(picture, into: frame)
            }, deliver: { packet throws(VideoError) in
                try muxer.write(packet, timeBase: timeBase)
            })
        }
        framesWritten += 1
    }

    /// Copies the planes into the frame. The chroma planes of an odd-sized picture already
    /// cover the coded size; its luma gets the last column and row repeated.
    private static func copy(_ picture: YUVPicture, into frame: UnsafeMutablePointer<AVFrame>) {
        let data = frame.pointee.data, strides = frame.pointee.linesize
        let padded = (width: picture.width % 2, height: picture.height % 2)
        copyRows(picture.luma, rowLength: picture.width, rows: picture.height, padding: padded, into: data.0!, bytesPerRow: Int(strides.0))
        copyRows(picture.cb, rowLength: picture.chromaWidth, rows: picture.chromaHeight, into: data.1!, bytesPerRow: Int(strides.1))
        copyRows(picture.cr, rowLength: picture.chromaWidth, rows: picture.chromaHeight, into: data.2!, bytesPerRow: Int(strides.2))
    }

    /// Copies `rows` rows of `rowLength` samples, then repeats the last sample of each row
    /// `padding.width` times and the last row `padding.height` times.
    private static func copyRows(
        _ plane: [UInt8], rowLength: Int, rows: Int, padding: (width: Int, height: Int) = (0, 0),
        into destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int
    ) {
        plane.withUnsafeBufferPointer { plane in
            for row in 0..<rows {
                let target = destination + row * bytesPerRow
                target.update(from: plane.baseAddress! + row * rowLength, count: rowLength)
                if padding.width > 0 { target[rowLength] = target[rowLength - 1] }
            }
        }
        if padding.height > 0 {
            (destination + rows * bytesPerRow).update(from: destination + (rows - 1) * bytesPerRow, count: rowLength + padding.width)
        }
    }

    /// Encodes the frames the encoder still holds, writes the trailer and closes the file.
    /// - Throws: ``VideoError`` if any of it fails; the file is then incomplete.
    public consuming func finish() throws(VideoError) {
        try finishWriting(&encoder, into: &muxer, log: log)
    }
}

extension PictureVideoWriter: @unchecked Sendable {}
