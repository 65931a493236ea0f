import CFFmpeg
import CVideoIO

/// Owns one output file (its AVFormatContext and I/O) with a single video stream, and frees
/// both in `deinit`, whether or not the file was finished.
struct Muxer: ~Copyable {
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let path: String
    private var fileIsOpen = false
    // Kept so the sink `context.opaque` points at lives as long as the context.
    private let log: WarningLog

    /// Prepares a container for `path`, named by `container` or guessed from the extension.
    init(path: String, container: String?, codec: UnsafePointer<AVCodec>, log: WarningLog) throws(VideoError) {
        try self.init(path: path, container: container, codecID: codec.pointee.id, log: log)
    }

    /// Prepares a container for `path` to hold video coded with `codecID`.
    init(path: String, container: String?, codecID: AVCodecID, log: WarningLog) throws(VideoError) {
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        // The context keeps the URL: the MP4 muxer opens it again to move the index to the front.
        let status = avformat_alloc_output_context2(&allocated, nil, container, FFmpegURL.ofFile(path))
        guard status >= 0, let context = allocated else {
            let reason = container.map { "FFmpeg has no '\($0)' container" }
                ?? "cannot tell the container from the file name; use an extension such as .mp4 or .mkv"
            throw VideoError(.invalidSettings, uri: path, detail: reason)
        }
        let containerName = String(cString: context.pointee.oformat.pointee.name)
        guard avformat_query_codec(context.pointee.oformat, codecID, FF_COMPLIANCE_NORMAL) != 0,
              let stream = avformat_new_stream(context, nil)
        else {
            avformat_free_context(context)
            let codecName = String(cString: avcodec_get_name(codecID))
            throw VideoError(.invalidSettings, uri: path, detail: "the \(containerName) container cannot hold \(codecName) video")
        }
        context.pointee.opaque = log.contextOpaque
        self.context = context
        self.stream = stream
        self.path = path
        self.log = log
    }

    deinit {
        if fileIsOpen {
            avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
    }

    /// Whether the container stores codec headers once, up front, rather than in the stream.
    var wantsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Describes the stream from the opened `encoder`, creates the file and writes its header.
    /// - Parameter metadata: tags for the file (an MP4 keeps any key), e.g. where a clip came from.
    mutating func start(
        encoder: UnsafePointer<AVCodecContext>, rotation: Int, fastStart: Bool, metadata: [String: String] = [:]
    ) throws(VideoError) {
        let path = path
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder)) { message in
            VideoError(.writeFailed, uri: path, detail: message)
        }
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.pointee.framerate
        try writeHeader(rotation: rotation, fastStart: fastStart, metadata: metadata)
    }

    /// Describes the stream as a copy of `parameters` (packets will be copied, not encoded),
    /// creates the file and writes its header.
    mutating func start(
        copying parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, frameRate: AVRational,
        rotation: Int, metadata: [String: String]
    ) throws(VideoError) {
        let path = path
        try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters)) { message in
            VideoError(.writeFailed, uri: path, detail: message)
        }
        stream.pointee.codecpar.pointee.codec_tag = 0  // let the container pick its own tag
        stream.pointee.time_base = timeBase
        stream.pointee.avg_frame_rate = frameRate
        try writeHeader(rotation: rotation, fastStart: true, metadata: metadata)
    }

    private mutating func writeHeader(rotation: Int, fastStart: Bool, metadata: [String: String]) throws(VideoError) {
        let path = path
        let log = log
        if rotation != 0 {
            try check(cvio_stream_set_display_rotation(stream, Int32(rotation))) { message in
                VideoError(.writeFailed, uri: path, detail: message)
            }
        }
        // Only MP4 and MOV have movflags; other muxers report it missing, which is fine.
        // use_metadata_tags lets an MP4 keep keys of our own.
        let flags = (fastStart ? "+faststart" : "") + (metadata.isEmpty ? "" : "+use_metadata_tags")
        if !flags.isEmpty {
            _ = av_opt_set(context.pointee.priv_data, "movflags", flags, 0)
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            av_dict_set(&context.pointee.metadata, key, value, 0)
        }
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try check(avio_open(&context.pointee.pb, FFmpegURL.ofFile(path), AVIO_FLAG_WRITE)) { message in
                VideoError(.cannotCreate, uri: path, detail: message)
            }
            fileIsOpen = true
        }
        try check(avformat_write_header(context, nil)) { message in
            VideoError(.writeFailed, uri: path, detail: log.latest ?? message)
        }
    }

    /// Writes one encoded packet, whose timestamps count in `timeBase`; takes its contents.
    mutating func write(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) throws(VideoError) {
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        let path = path
        let log = log
        try check(av_interleaved_write_frame(context, packet)) { message in
            VideoError(.writeFailed, uri: path, detail: log.latest ?? message)
        }
    }

    /// Writes the trailer (an MP4's index) and closes the file.
    mutating func finish() throws(VideoError) {
        let path = path
        let log = log
        try check(av_write_trailer(context)) { message in
            VideoError(.writeFailed, uri: path, detail: log.latest ?? message)
        }
        if fileIsOpen {
            fileIsOpen = false
            try check(avio_closep(&context.pointee.pb)) { message in
                VideoError(.writeFailed, uri: path, detail: message)
            }
        }
    }
}
