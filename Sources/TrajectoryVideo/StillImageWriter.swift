import CFFmpeg
import TrajectoryDrawing

/// Writes single pictures as image files.
public enum StillImageWriter {
    /// Writes `picture` to `path` as an 8-bit RGB PNG of the same size, converting its YUV
    /// with the picture's own matrix and range.
    /// - Throws: ``VideoError`` when this FFmpeg lacks the PNG encoder or the file cannot be written.
    public static func writePNG(_ picture: YUVPicture, to path: String) throws(VideoError) {
        let log = WarningLog()
        try log.collecting { () throws(VideoError) in
            let bytes = try withRGBFrame(of: picture, path: path) { frame throws(VideoError) in
                try encodePNG(frame, path: path, log: log)
            }
            try write(bytes, to: path, log: log)
        }
    }

    /// One PNG file's bytes for an RGB24 frame.
    private static func encodePNG(_ frame: UnsafePointer<AVFrame>, path: String, log: WarningLog) throws(VideoError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw VideoError(.noEncoder, uri: path, detail: "png") }
        var context = avcodec_alloc_context3(codec)
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_packet_free(&packet)
        }
        guard let context, let packet else { throw VideoError(.writeFailed, uri: path, detail: "out of memory") }
        context.pointee.opaque = log.contextOpaque
        context.pointee.width = frame.pointee.width
        context.pointee.height = frame.pointee.height
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 1)
        let failure = { (message: String) in VideoError(.writeFailed, uri: path, detail: log.latest ?? message) }
        try check(avcodec_open2(context, codec, nil), else: failure)
        try check(avcodec_send_frame(context, frame), else: failure)
        try check(avcodec_send_frame(context, nil), else: failure)
        try check(avcodec_receive_packet(context, packet), else: failure)
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    private static func write(_ bytes: [UInt8], to path: String, log: WarningLog) throws(VideoError) {
        var io: UnsafeMutablePointer<AVIOContext>?
        try check(avio_open(&io, FFmpegURL.ofFile(path), AVIO_FLAG_WRITE)) { message in VideoError(.cannotCreate, uri: path, detail: message) }
        bytes.withUnsafeBufferPointer { avio_write(io, $0.baseAddress, Int32($0.count)) }
        try check(avio_closep(&io)) { message in VideoError(.writeFailed, uri: path, detail: log.latest ?? message) }
    }

    /// Lends `body` an RGB24 frame converted from `picture` by swscale.
    private static func withRGBFrame<Result>(
        of picture: YUVPicture, path: String, _ body: (UnsafePointer<AVFrame>) throws(VideoError) -> Result
    ) throws(VideoError) -> Result {
        var allocated = av_frame_alloc()
        defer { av_frame_free(&allocated) }
        guard let frame = allocated else { throw VideoError(.writeFailed, uri: path, detail: "out of memory") }
        frame.pointee.format = AV_PIX_FMT_RGB24.rawValue
        frame.pointee.width = Int32(picture.width)
        frame.pointee.height = Int32(picture.height)
        try check(av_frame_get_buffer(frame, 0)) { message in VideoError(.writeFailed, uri: path, detail: message) }
        guard let converter = sws_getContext(
            Int32(picture.width), Int32(picture.height), AV_PIX_FMT_YUV420P,
            Int32(picture.width), Int32(picture.height), AV_PIX_FMT_RGB24,
            Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
        else { throw VideoError(.writeFailed, uri: path, detail: "cannot convert yuv420p to rgb24") }
        defer { sws_freeContext(converter) }
        let matrix = sws_getCoefficients(picture.encoding.matrix == .bt709 ? SWS_CS_ITU709 : SWS_CS_ITU601)
        sws_setColorspaceDetails(converter, matrix, picture.encoding.fullRange ? 1 : 0, matrix, 1, 0, 1 << 16, 1 << 16)
        picture.luma.withUnsafeBufferPointer { luma in
            picture.cb.withUnsafeBufferPointer { cb in
                picture.cr.withUnsafeBufferPointer { cr in
                    let data = frame.pointee.data, linesize = frame.pointee.linesize
                    let chromaStride = Int32(picture.chromaWidth)
                    scale((luma.baseAddress, cb.baseAddress, cr.baseAddress, nil),
                          strides: (Int32(picture.width), chromaStride, chromaStride, 0), height: Int32(picture.height),
                          with: converter, into: (data.0, data.1, data.2, data.3),
                          strides: (linesize.0, linesize.1, linesize.2, linesize.3))
                }
            }
        }
        return try body(frame)
    }
}
