import CFFmpeg
import CVideoIO

/// Owns a video encoder (AVCodecContext), the frame it is fed from and the packet it fills;
/// frees all three in `deinit`.
struct Encoder: ~Copyable {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let path: String
    private let log: WarningLog
    private var nextTimestamp: Int64 = 0

    /// Finds the encoder `format` needs, or throws `noEncoder`.
    static func codec(for format: VideoWriter.Format, path: String) throws(VideoError) -> UnsafePointer<AVCodec> {
        guard let codec = avcodec_find_encoder_by_name(format.encoderName) else {
            throw VideoError(.noEncoder, uri: path, detail: format.encoderName)
        }
        return codec
    }

    /// Opens `codec` for `width` × `height` frames with `settings` (already validated).
    init(
        codec: UnsafePointer<AVCodec>, width: Int, height: Int, settings: VideoWriter.Settings,
        globalHeader: Bool, path: String, log: WarningLog
    ) throws(VideoError) {
        try self.init(codec: codec, width: width, height: height, setup: EncoderSetup(settings),
                      globalHeader: globalHeader, path: path, log: log)
    }

    /// Opens `codec` for `width` × `height` frames as `setup` says.
    init(
        codec: UnsafePointer<AVCodec>, width: Int, height: Int, setup: EncoderSetup,
        globalHeader: Bool, path: String, log: WarningLog
    ) throws(VideoError) {
        var allocatedContext = avcodec_alloc_context3(codec)
        var allocatedFrame = av_frame_alloc()
        var allocatedPacket = av_packet_alloc()
        guard let context = allocatedContext, let frame = allocatedFrame, let packet = allocatedPacket else {
            avcodec_free_context(&allocatedContext)
            av_frame_free(&allocatedFrame)
            av_packet_free(&allocatedPacket)
            throw VideoError(.writeFailed, uri: path, detail: "out of memory")
        }
        do {
            try Self.open(context, codec: codec, frame: frame, width: width, height: height, setup: setup,
                          globalHeader: globalHeader, path: path, log: log)
        } catch {
            avcodec_free_context(&allocatedContext)
            av_frame_free(&allocatedFrame)
            av_packet_free(&allocatedPacket)
            throw error
        }
        self.context = context
        self.frame = frame
        self.packet = packet
        self.path = path
        self.log = log
    }

    private static func open(
        _ context: UnsafeMutablePointer<AVCodecContext>, codec: UnsafePointer<AVCodec>, frame: UnsafeMutablePointer<AVFrame>,
        width: Int, height: Int, setup: EncoderSetup, globalHeader: Bool, path: String, log: WarningLog
    ) throws(VideoError) {
        context.pointee.opaque = log.contextOpaque
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = setup.pixelFormat
        context.pointee.time_base = setup.timeBase
        context.pointee.framerate = setup.frameRate
        context.pointee.thread_count = 0
        context.pointee.color_range = setup.colourRange
        context.pointee.colorspace = setup.colourSpace
        if let quality = setup.fixedQuality {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            context.pointee.global_quality = quality * FF_QP2LAMBDA
        }
        if globalHeader {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        for (name, value) in setup.options {
            _ = av_opt_set(context.pointee.priv_data, name, value, 0)
        }
        try check(avcodec_open2(context, codec, nil)) { message in
            VideoError(.invalidSettings, uri: path, detail: log.latest ?? message)
        }
        frame.pointee.format = setup.pixelFormat.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.color_range = context.pointee.color_range
        frame.pointee.colorspace = context.pointee.colorspace
        try check(av_frame_get_buffer(frame, 0)) { message in VideoError(.writeFailed, uri: path, detail: message) }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
    }

    /// The opened encoder, for the muxer to describe its stream.
    var parameters: UnsafePointer<AVCodecContext> { UnsafePointer(context) }

    /// Timestamps of packets count in this (1 / frame rate).
    var timeBase: AVRational { context.pointee.time_base }

    /// Lets `fill` write the next picture into the frame, then encodes it with `timestamp` (in
    /// ``timeBase``; by default one tick after the previous frame's) and hands every packet
    /// that comes out to `deliver`.
    mutating func encodeFrame(
        timestamp: Int64? = nil,
        filling fill: (UnsafeMutablePointer<AVFrame>) -> Void,
        deliver: (UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Void
    ) throws(VideoError) {
        let path = path
        // The encoder may still hold the previous picture; then this gives the frame new memory.
        try check(av_frame_make_writable(frame)) { message in VideoError(.writeFailed, uri: path, detail: message) }
        fill(frame)
        frame.pointee.pts = timestamp ?? nextTimestamp
        nextTimestamp = frame.pointee.pts + 1
        try send(frame, deliver: deliver)
    }

    /// Flushes the frames the encoder still holds (x264 looks ahead) to `deliver`.
    mutating func flush(deliver: (UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Void) throws(VideoError) {
        try send(nil, deliver: deliver)
    }

    private mutating func send(
        _ frame: UnsafeMutablePointer<AVFrame>?,
        deliver: (UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Void
    ) throws(VideoError) {
        let path = path
        let log = log
        try check(avcodec_send_frame(context, frame)) { message in
            VideoError(.writeFailed, uri: path, detail: log.latest ?? message)
        }
        while true {
            let received = avcodec_receive_packet(context, packet)
            if received == FFmpegCode.again || received == FFmpegCode.endOfFile { return }
            try check(received) { message in VideoError(.writeFailed, uri: path, detail: log.latest ?? message) }
            defer { av_packet_unref(packet) }
            try deliver(packet)
        }
    }
}

/// Encodes the frames `encoder` still holds into `muxer`, then writes the trailer and closes
/// the file: how every writer finishes.
func finishWriting(_ encoder: inout Encoder, into muxer: inout Muxer, log: WarningLog) throws(VideoError) {
    let timeBase = encoder.timeBase
    try log.collecting { () throws(VideoError) in
        try encoder.flush { packet throws(VideoError) in try muxer.write(packet, timeBase: timeBase) }
        try muxer.finish()
    }
}

/// What an encoder is opened with: the pixel format, how it counts time, the colour tags and
/// the codec's own options.
struct EncoderSetup {
    var pixelFormat: AVPixelFormat
    var timeBase: AVRational
    var frameRate: AVRational
    var colourRange = AVCOL_RANGE_UNSPECIFIED
    var colourSpace = AVCOL_SPC_UNSPECIFIED
    /// A constant quantiser (for codecs without a rate factor, such as MPEG-4), or nil.
    var fixedQuality: Int32?
    /// The codec's private options, such as x264's `preset` and `crf`.
    var options: [(String, String)] = []

    /// The setup of ``VideoWriter``'s grey video.
    init(_ settings: VideoWriter.Settings) {
        let format = settings.format
        pixelFormat = format.pixelFormat
        timeBase = AVRational(num: Int32(settings.frameRate.seconds), den: Int32(settings.frameRate.frames))
        frameRate = AVRational(num: Int32(settings.frameRate.frames), den: Int32(settings.frameRate.seconds))
        if format.isYUV {
            colourRange = AVCOL_RANGE_JPEG
        }
        if format.usesX264Settings {
            options = [("preset", settings.preset), ("crf", String(settings.crf))]
        }
    }

    init(pixelFormat: AVPixelFormat, timeBase: AVRational, frameRate: AVRational) {
        self.pixelFormat = pixelFormat
        self.timeBase = timeBase
        self.frameRate = frameRate
    }
}
