import CFFmpeg
import CVideoIO

/// Owns one opened input (its AVFormatContext) and the packet it reads into, and frees both
/// in `deinit`. Finds the best video stream and tells the demuxer to skip every other stream.
struct Demuxer: ~Copyable {
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let packetStorage: UnsafeMutablePointer<AVPacket>
    /// The stream frames are decoded from.
    let videoStream: UnsafeMutablePointer<AVStream>
    /// The decoder FFmpeg picked for that stream.
    let codec: UnsafePointer<AVCodec>
    /// Whether the input is an MP4 or MOV that cannot seek and whose index follows its
    /// frames, so that none of them can be read, though the index describes the video.
    let framesAreUnreachable: Bool
    // Kept so the sink `context.opaque` points at lives as long as the context.
    private let log: WarningLog
    // Kept, for the same reason, for the context's interrupt callback.
    private let stopSignal: StopSignal?

    /// Opens `uri` (a path, a URL FFmpeg reads, or `-` for standard input) and finds its video
    /// stream; errors name `uri`.
    /// - Parameters:
    ///   - networkTimeout: seconds a network read may wait for data before it fails, so a
    ///     stalled stream ends the run with an error instead of hanging it.
    ///   - stopSignal: once raised, a network read waiting for data fails at once.
    ///   - decodedPixelLimit: when set, FFmpeg decodes no larger picture while it probes the
    ///     streams (FFmpeg's `max_pixels`), so a huge stream is not decoded before it is refused.
    init(
        uri: String, networkTimeout: Double, log: WarningLog, stopSignal: StopSignal? = nil,
        decodedPixelLimit: Int? = nil
    ) throws(VideoError) {
        let url = FFmpegURL.of(uri)
        var allocatedContext = avformat_alloc_context()
        var allocatedPacket = av_packet_alloc()
        guard let opening = allocatedContext, let packet = allocatedPacket else {
            avformat_free_context(allocatedContext)
            av_packet_free(&allocatedPacket)
            throw VideoError(.readFailed, uri: uri, detail: "out of memory")
        }
        opening.pointee.opaque = log.contextOpaque
        if let stopSignal { opening.pointee.interrupt_callback = stopSignal.interruptCallback }
        var options: OpaquePointer?
        if InputLocation.isProtocol(url) {
            // rw_timeout is every protocol's read/write timeout, in microseconds.
            av_dict_set(&options, "rw_timeout", String(Int64(networkTimeout * 1_000_000)), 0)
        }
        let opened = avformat_open_input(&allocatedContext, url, nil, &options)
        av_dict_free(&options)
        guard opened >= 0, let context = allocatedContext else {
            // avformat_open_input has freed the context.
            var unusedPacket: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&unusedPacket)
            throw Self.openingError(opened, uri: uri, log: log)
        }
        // Before probing reads on from where the header left off.
        let framesAreUnreachable = Self.indexFollowsUnreachableFrames(in: context)
        do {
            let (stream, codec) = try Self.findVideoStream(
                in: context, uri: uri, log: log, decodedPixelLimit: decodedPixelLimit)
            self.context = context
            self.packetStorage = packet
            self.videoStream = stream
            self.codec = codec
            self.framesAreUnreachable = framesAreUnreachable
            self.log = log
            self.stopSignal = stopSignal
        } catch {
            var unusedContext: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&unusedContext)
            var unusedPacket: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&unusedPacket)
            throw error
        }
        for index in 0..<Int(context.pointee.nb_streams) where index != Int(videoStream.pointee.index) {
            context.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
        }
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packetStorage
        av_packet_free(&packet)
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }

    /// The packet the last successful `readVideoPacket()` filled.
    var packet: UnsafePointer<AVPacket> { UnsafePointer(packetStorage) }

    /// The container's duration in seconds, when it states one.
    var containerDuration: Double? {
        let duration = context.pointee.duration
        return duration > 0 && duration != FFmpegCode.noTimestamp ? Double(duration) / Double(AV_TIME_BASE) : nil
    }

    /// Whether the input is an MPEG transport stream, from a file or a pipe, whose size is not a whole
    /// number of its packets (188 bytes, or 192 or 204 with a prefix or a checksum): it was cut
    /// short, since a writer writes whole packets. A transport stream lists no frame count
    /// or duration to check the decoded frames against, and FFmpeg says nothing of a cut there.
    var endsPartWayThroughTransportPacket: Bool {
        guard let format = context.pointee.iformat, String(cString: format.pointee.name) == "mpegts",
            let input = context.pointee.pb
        else { return false }
        // The demuxer exports the packet size it found while probing.
        var packetSize: Int64 = 0
        guard av_opt_get_int(context.pointee.priv_data, "ts_packetsize", 0, &packetSize) >= 0, packetSize > 0 else {
            return false
        }
        // A pipe has no size: at its end, every byte it held has been read.
        let fileSize = avio_size(input)
        let size = fileSize > 0 ? fileSize : input.pointee.eof_reached != 0 ? input.pointee.bytes_read : 0
        return size > 0 && size % packetSize != 0
    }

    /// Moves to the last keyframe at or before `timestamp` (in the video stream's time base),
    /// so the next packets read start there. Returns 0 or a negative error code.
    mutating func seekToKeyframe(atOrBefore timestamp: Int64) -> Int32 {
        av_seek_frame(context, videoStream.pointee.index, timestamp, AVSEEK_FLAG_BACKWARD)
    }

    /// Whether FFmpeg holds index entries for the video stream after opening it: MP4 lists
    /// every keyframe in its header, Matroska and AVI gain entries while the stream is probed,
    /// and FFmpeg seeks those to a keyframe. MPEG-TS, read as it comes, has none, and a seek by
    /// timestamp there could land between two keyframes.
    var hasIndexEntries: Bool { avformat_index_get_entries_count(videoStream) > 0 }

    /// Reads packets until one of the video stream's; returns 0, AVERROR_EOF or another
    /// negative error code (a read error, a truncated file).
    mutating func readVideoPacket() -> Int32 {
        while true {
            av_packet_unref(packetStorage)
            let status = av_read_frame(context, packetStorage)
            if status < 0 || packetStorage.pointee.stream_index == videoStream.pointee.index {
                return status
            }
        }
    }

    private static func findVideoStream(
        in context: UnsafeMutablePointer<AVFormatContext>, uri: String, log: WarningLog, decodedPixelLimit: Int?
    ) throws(VideoError) -> (UnsafeMutablePointer<AVStream>, UnsafePointer<AVCodec>) {
        // FFmpeg's tty demuxer shows any text file named *.txt as ANSI art.
        if let format = context.pointee.iformat, String(cString: format.pointee.name) == "tty" {
            throw VideoError(.notAVideo, uri: uri, detail: "it is a text file")
        }
        try check(probeStreams(of: context, decodedPixelLimit: decodedPixelLimit)) { message in
            VideoError(.notAVideo, uri: uri, detail: log.latest ?? message)
        }
        var codec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        let streams = (0..<Int(context.pointee.nb_streams)).map { context.pointee.streams[$0]! }
        guard index >= 0, let codec else {
            // No decodable video stream: say whether there is none at all or no decoder for it.
            guard let video = streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }) else {
                throw VideoError(.noVideoStream, uri: uri)
            }
            let codecID = video.pointee.codecpar.pointee.codec_id
            // A codec FFmpeg has no name for is most often a damaged header; "none" would say nothing.
            let codecName = codecID == AV_CODEC_ID_NONE
                ? "the stream names none FFmpeg knows (is its header damaged?)" : String(cString: avcodec_get_name(codecID))
            throw VideoError(.noDecoder, uri: uri, detail: codecName)
        }
        let stream = streams[Int(index)]
        // An audio file's cover art is a one-picture "video" stream; it is not footage.
        if stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            throw VideoError(.noVideoStream, uri: uri, detail: "only cover art")
        }
        return (stream, codec)
    }

    /// Whether `context`, just opened, is an MP4 or MOV read from a pipe (or another input that
    /// cannot seek) whose index (`moov`) follows its media, as phones and cameras write it: to
    /// reach the index FFmpeg has read past every sample, and cannot go back to them.
    ///
    /// Right after the header is read, an MP4 with its index first stands at the start of its
    /// media, so every sample the index lists lies at or after the read position; one with its
    /// index last stands past them. A fragmented MP4 lists no samples in its header.
    private static func indexFollowsUnreachableFrames(in context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let format = context.pointee.iformat, String(cString: format.pointee.name).hasPrefix("mov,"),
              let io = context.pointee.pb, io.pointee.seekable == 0
        else { return false }
        let position = avio_tell(io)
        return (0..<Int(context.pointee.nb_streams)).contains { index in
            guard let first = avformat_index_get_entry(context.pointee.streams[index]!, 0) else { return false }
            return first.pointee.pos < position
        }
    }

    /// Reads the start of the input to learn each stream's codec, size and rate
    /// (`avformat_find_stream_info`, which decodes a few pictures), with every stream's decoder
    /// limited to `decodedPixelLimit` pixels per picture when one is given.
    private static func probeStreams(of context: UnsafeMutablePointer<AVFormatContext>, decodedPixelLimit: Int?) -> Int32 {
        guard let decodedPixelLimit else { return avformat_find_stream_info(context, nil) }
        // One dictionary of decoder options per stream, as FFmpeg asks.
        var streamOptions = [OpaquePointer?](repeating: nil, count: Int(context.pointee.nb_streams))
        for index in streamOptions.indices {
            av_dict_set_int(&streamOptions[index], "max_pixels", Int64(decodedPixelLimit), 0)
        }
        let status = avformat_find_stream_info(context, &streamOptions)
        for index in streamOptions.indices { av_dict_free(&streamOptions[index]) }
        return status
    }

    private static func openingError(_ code: Int32, uri: String, log: WarningLog) -> VideoError {
        switch code {
        case FFmpegCode.noSuchFile: return VideoError(.noSuchFile, uri: uri)
        case FFmpegCode.permissionDenied: return VideoError(.permissionDenied, uri: uri)
        default:
            if let file = FFmpegURL.localPath(of: uri).flatMap(LocalFile.init(path:)), file.kind == .regular, file.size == 0 {
                return VideoError(.emptyFile, uri: uri)
            }
            if code == FFmpegCode.invalidData { return VideoError(.notAVideo, uri: uri, detail: log.latest) }
            if code == FFmpegCode.timedOut { return VideoError(.readFailed, uri: uri, detail: "no data arrived in time (timed out)") }
            return VideoError(.readFailed, uri: uri, detail: log.latest ?? FFmpegCode.message(code))
        }
    }
}
