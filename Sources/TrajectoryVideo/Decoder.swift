import CFFmpeg
import CVideoIO

/// Owns a video decoder (AVCodecContext) and the frame it decodes into; frees both in `deinit`.
/// Decodes with FFmpeg's frame and slice threading, on `threads` threads (0: FFmpeg's choice,
/// one more than the machine has cores), with or without the codec's loop filter, and refusing
/// pictures over `decodedPixelLimit` pixels when one is given (FFmpeg's `max_pixels`).
struct Decoder: ~Copyable {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frameStorage: UnsafeMutablePointer<AVFrame>
    // Kept so the sink `context.opaque` points at outlives the decoder's threads.
    private let log: WarningLog

    init(
        codec: UnsafePointer<AVCodec>, stream: UnsafePointer<AVStream>, uri: String, log: WarningLog, threads: Int = 0,
        loopFilter: LoopFilter = .applied, decodedPixelLimit: Int? = nil
    ) throws(VideoError) {
        guard let frame = av_frame_alloc() else { throw VideoError(.readFailed, uri: uri, detail: "out of memory") }
        guard let context = avcodec_alloc_context3(codec) else {
            var unusedFrame: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&unusedFrame)
            throw VideoError(.readFailed, uri: uri, detail: "out of memory")
        }
        context.pointee.opaque = log.contextOpaque
        context.pointee.thread_count = Int32(clamping: threads)
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        context.pointee.pkt_timebase = stream.pointee.time_base
        if loopFilter == .skipped { context.pointee.skip_loop_filter = AVDISCARD_ALL }
        do {
            try check(avcodec_parameters_to_context(context, stream.pointee.codecpar)) { message in
                VideoError(.readFailed, uri: uri, detail: message)
            }
            try check(avcodec_open2(context, codec, nil)) { message in
                VideoError(.noDecoder, uri: uri, detail: log.latest ?? message)
            }
        } catch {
            var unusedContext: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&unusedContext)
            var unusedFrame: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&unusedFrame)
            throw error
        }
        // Set once open: opening checks the stated size against it, and `info` must still
        // describe a stream stated larger (a refusal by size is made before, by the caller).
        // Every picture decoded is checked against it.
        if let decodedPixelLimit { context.pointee.max_pixels = Int64(decodedPixelLimit) }
        self.context = context
        self.frameStorage = frame
        self.log = log
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)  // joins the decoder threads before the sink can go
        var frame: UnsafeMutablePointer<AVFrame>? = frameStorage
        av_frame_free(&frame)
    }

    /// The frame the last successful `receiveFrame()` filled.
    var frame: UnsafePointer<AVFrame> { UnsafePointer(frameStorage) }
    /// The same frame, for a caller that takes it over (`av_frame_move_ref`) to keep its
    /// pictures beyond the next `receiveFrame()`, which then fills a fresh one.
    var frameToTakeOver: UnsafeMutablePointer<AVFrame> { frameStorage }

    /// The pixel format the decoder produces, once it knows it.
    var pixelFormat: AVPixelFormat { context.pointee.pix_fmt }

    /// Feeds one packet, or nil to flush the frames still inside the decoder at the end.
    mutating func send(_ packet: UnsafePointer<AVPacket>?) -> Int32 {
        avcodec_send_packet(context, packet)
    }

    /// Takes the next decoded frame into `frame`: 0, AVERROR(EAGAIN) when the decoder needs
    /// another packet, AVERROR_EOF after the flush, or another negative error.
    mutating func receiveFrame() -> Int32 {
        av_frame_unref(frameStorage)
        return avcodec_receive_frame(context, frameStorage)
    }

    /// Forgets the frames and references it holds, as after a seek.
    mutating func flush() {
        avcodec_flush_buffers(context)
    }
}
