import CFFmpeg
import CVideoIO
import TrajectoryDrawing

/// Copies decoded frames into a ``YUVPicture`` as a player shows them: 8-bit 4:2:0, display
/// rotation applied.
///
/// 8-bit 4:2:0 frames (yuv420p, yuvj420p) are copied plane by plane; anything else is first
/// converted by swscale into reused buffers (keeping the range of YUV sources; RGB sources
/// become BT.601 video range). The picture keeps its storage from frame to frame.
///
/// Every picture has the first frame's size: a stream that changes size part-way (a broadcast
/// switching feeds) has its later frames scaled to it, so that one video file can hold them.
struct PictureConverter: ~Copyable {
    /// Luma, Cb and Cr: where each plane starts and how many bytes apart its rows are.
    typealias PlaneSources = ((UnsafePointer<UInt8>, Int), (UnsafePointer<UInt8>, Int), (UnsafePointer<UInt8>, Int))

    /// Clockwise degrees: 0, 90, 180 or 270.
    let rotation: Int
    private var converter: OpaquePointer?  // SwsContext
    private var converterKey: (width: Int32, height: Int32, format: Int32, outputWidth: Int32, outputHeight: Int32)?
    /// The first frame's size, as decoded (before rotation): every picture's.
    private var outputSize: (width: Int32, height: Int32)?
    private var lumaBuffer = PlaneBuffer()
    private var cbBuffer = PlaneBuffer()
    private var crBuffer = PlaneBuffer()

    init(rotation: Int) {
        self.rotation = rotation
    }

    deinit { sws_freeContext(converter) }

    /// Writes `frame` into `picture`, resizing it to the displayed size.
    mutating func convert(_ frame: UnsafePointer<AVFrame>, into picture: inout YUVPicture, uri: String) throws(VideoError) {
        guard frame.pointee.width > 0, frame.pointee.height > 0 else {
            throw VideoError(.readFailed, uri: uri, detail: "the decoder returned a frame without pixels")
        }
        let size = outputSize ?? (frame.pointee.width, frame.pointee.height)
        outputSize = size
        let width = Int(size.width), height = Int(size.height)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        let source: PlaneSources
        let encoding: ColourEncoding
        let matrix: ColourEncoding.Matrix = frame.pointee.colorspace == AVCOL_SPC_BT709 ? .bt709 : .bt601
        let isOutputSize = frame.pointee.width == size.width && frame.pointee.height == size.height
        if isOutputSize && (format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P) {
            let data = frame.pointee.data, strides = frame.pointee.linesize
            source = ((UnsafePointer(data.0!), Int(strides.0)), (UnsafePointer(data.1!), Int(strides.1)),
                      (UnsafePointer(data.2!), Int(strides.2)))
            encoding = ColourEncoding(
                matrix: matrix, fullRange: format == AV_PIX_FMT_YUVJ420P || frame.pointee.color_range == AVCOL_RANGE_JPEG)
        } else {
            let isRGB = cvio_pixel_format_is_rgb_or_palette(format)
            let fullRange = !isRGB && frame.pointee.color_range == AVCOL_RANGE_JPEG
            source = try toYUV420(frame, width: size.width, height: size.height, fullRange: fullRange, uri: uri)
            encoding = ColourEncoding(matrix: isRGB ? .bt601 : matrix, fullRange: fullRange)
        }
        let shown = VideoInfo.displayedSize(width: width, height: height, rotation: rotation)
        picture.resize(width: shown.width, height: shown.height)
        picture.encoding = encoding
        let chroma = (width: (width + 1) / 2, height: (height + 1) / 2)
        Self.copy(source.0, width: width, height: height, rotation: rotation, into: &picture.luma, rowLength: picture.width)
        Self.copy(source.1, width: chroma.width, height: chroma.height, rotation: rotation, into: &picture.cb, rowLength: picture.chromaWidth)
        Self.copy(source.2, width: chroma.width, height: chroma.height, rotation: rotation, into: &picture.cr, rowLength: picture.chromaWidth)
    }

    /// Copies one `width` × `height` plane into `destination` (rows `rowLength` apart), turned.
    private static func copy(
        _ source: (UnsafePointer<UInt8>, Int), width: Int, height: Int, rotation: Int,
        into destination: inout [UInt8], rowLength: Int
    ) {
        destination.withUnsafeMutableBufferPointer { destination in
            cvio_rotate_plane(source.0, source.1, Int32(width), Int32(height), destination.baseAddress!, rowLength,
                              Int32(rotation))
        }
    }

    /// Converts a frame of any other format or size to 8-bit 4:2:0 of `width` × `height` in
    /// the reused buffers.
    private mutating func toYUV420(
        _ frame: UnsafePointer<AVFrame>, width outputWidth: Int32, height outputHeight: Int32, fullRange: Bool, uri: String
    ) throws(VideoError) -> PlaneSources {
        let key = (width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format,
                   outputWidth: outputWidth, outputHeight: outputHeight)
        if converterKey.map({ $0 != key }) ?? true {
            sws_freeContext(converter)
            converter = sws_getContext(
                key.width, key.height, AVPixelFormat(rawValue: key.format), key.outputWidth, key.outputHeight, AV_PIX_FMT_YUV420P,
                Int32(SWS_BILINEAR | SWS_ACCURATE_RND), nil, nil, nil)
            converterKey = converter == nil ? nil : key
            guard let converter else {
                let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: key.format)).map { String(cString: $0) } ?? "format \(key.format)"
                throw VideoError(.readFailed, uri: uri, detail: "cannot convert pixel format \(name) to yuv420p")
            }
            // Keep a YUV source's range; swscale would otherwise squeeze full range into video range.
            let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
            let range: Int32 = fullRange ? 1 : 0
            sws_setColorspaceDetails(converter, coefficients, range, coefficients, range, 0, 1 << 16, 1 << 16)
        }
        let width = Int(outputWidth), height = Int(outputHeight)
        let layouts = (PlaneBuffer.layout(width: width, height: height),
                       PlaneBuffer.layout(width: (width + 1) / 2, height: (height + 1) / 2))
        let destination = (lumaBuffer.reserve(layouts.0), cbBuffer.reserve(layouts.1), crBuffer.reserve(layouts.1))
        let chromaStride = Int32(layouts.1.bytesPerRow)
        scale(frame, with: converter, into: (destination.0, destination.1, destination.2, nil),
              strides: (Int32(layouts.0.bytesPerRow), chromaStride, chromaStride, 0))
        return ((UnsafePointer(destination.0), layouts.0.bytesPerRow),
                (UnsafePointer(destination.1), layouts.1.bytesPerRow),
                (UnsafePointer(destination.2), layouts.1.bytesPerRow))
    }
}
