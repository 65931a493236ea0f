import CFFmpeg
import CVideoIO
import TrajectoryKit

/// Finds the 8-bit luma plane of a decoded frame as a player would show it.
///
/// When the frame's first plane is already 8-bit luma (yuv420p, yuvj420p, nv12, gray, …) it is
/// lent as it is, without copying. A 10- to 16-bit luma plane is rounded to 8 bits, and other
/// formats (RGB, palettes, packed YUV) are converted to grey by swscale, into a buffer reused
/// from frame to frame. The display rotation, if any, then copies the plane turned into a
/// second reused buffer.
///
/// Luma keeps the source's range: limited-range video gives values around 16…235 as coded,
/// full-range video and RGB or palette sources give 0…255. No per-pixel work is spent on
/// expanding limited range, because detection works on differences, not absolute levels.
/// (One exception: swscale stretches packed YUV of more than 8 bits, such as y210, to full
/// range; no camera format we know of needs it.)
struct LumaPlaneExtractor: ~Copyable {
    /// Clockwise degrees: 0, 90, 180 or 270.
    let rotation: Int
    private var converter: OpaquePointer?  // SwsContext
    private var converterKey: ConverterKey?
    private var converted = PlaneBuffer()
    private var rotated = PlaneBuffer()

    /// What a swscale context was made for; a frame that differs needs a new one.
    private struct ConverterKey: Equatable {
        var width: Int32
        var height: Int32
        var format: Int32
        var fullRange: Bool
    }

    init(rotation: Int) {
        self.rotation = rotation
    }

    deinit { sws_freeContext(converter) }

    /// Lends `frame`'s displayed luma plane and its layout to `body`.
    mutating func withLumaPlane<Result>(
        of frame: UnsafePointer<AVFrame>, uri: String,
        _ body: (UnsafePointer<UInt8>, PlaneLayout) throws -> Result
    ) throws -> Result {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        guard width > 0, height > 0 else {
            throw VideoError(.readFailed, uri: uri, detail: "the decoder returned a frame without pixels")
        }
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        var plane: UnsafePointer<UInt8>
        var layout: PlaneLayout
        let access = cvio_pixel_format_luma_access(format)
        if let inPlace = Self.lumaPlane(of: frame) {
            (plane, layout) = inPlace
        } else if access == CVIO_LUMA_WIDE_PLANE, let luma = frame.pointee.data.0, frame.pointee.linesize.0 >= 2 * width {
            layout = PlaneBuffer.layout(width: width, height: height)
            let destination = converted.reserve(layout)
            cvio_narrow_luma_plane(luma, Int(frame.pointee.linesize.0), Int32(width), Int32(height), format,
                                   destination, layout.bytesPerRow)
            plane = UnsafePointer(destination)
        } else {
            layout = PlaneBuffer.layout(width: width, height: height)
            plane = UnsafePointer(try convertToGrey(frame, into: layout, uri: uri))
        }
        if rotation != 0 {
            let turned = rotation == 180 ? width : height
            let rotatedLayout = PlaneBuffer.layout(width: turned, height: rotation == 180 ? height : width)
            let destination = rotated.reserve(rotatedLayout)
            cvio_rotate_plane(plane, layout.bytesPerRow, Int32(width), Int32(height),
                              destination, rotatedLayout.bytesPerRow, Int32(rotation))
            plane = UnsafePointer(destination)
            layout = rotatedLayout
        }
        return try body(plane, layout)
    }

    /// The frame's luma plane where the decoder put it, when it is 8-bit luma to be shown
    /// unrotated: the plane ``withLumaPlane(of:uri:_:)`` lends as it is, without copying. Nil
    /// when the plane needs converting or turning.
    func displayedPlaneInPlace(of frame: UnsafePointer<AVFrame>) -> (UnsafePointer<UInt8>, PlaneLayout)? {
        rotation == 0 ? Self.lumaPlane(of: frame) : nil
    }

    /// The frame's first plane, when it is 8-bit luma.
    private static func lumaPlane(of frame: UnsafePointer<AVFrame>) -> (UnsafePointer<UInt8>, PlaneLayout)? {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        guard width > 0, height > 0,
              cvio_pixel_format_luma_access(AVPixelFormat(rawValue: frame.pointee.format)) == CVIO_LUMA_8BIT_PLANE,
              let luma = frame.pointee.data.0, frame.pointee.linesize.0 >= width
        else { return nil }
        return (UnsafePointer(luma), PlaneLayout(width: width, height: height, bytesPerRow: Int(frame.pointee.linesize.0)))
    }

    private mutating func convertToGrey(
        _ frame: UnsafePointer<AVFrame>, into layout: PlaneLayout, uri: String
    ) throws(VideoError) -> UnsafeMutablePointer<UInt8> {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        let key = ConverterKey(
            width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format,
            fullRange: cvio_pixel_format_is_rgb_or_palette(format) || frame.pointee.color_range == AVCOL_RANGE_JPEG
                || Self.isFullRangeFormat(format))
        if key != converterKey {
            sws_freeContext(converter)
            converter = nil
            converterKey = nil
            guard let context = Self.makeConverter(for: key) else {
                let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "format \(key.format)"
                throw VideoError(.readFailed, uri: uri, detail: "cannot convert pixel format \(name) to grey")
            }
            converter = context
            converterKey = key
        }
        let destination = converted.reserve(layout)
        scale(frame, with: converter, into: (destination, nil, nil, nil), strides: (Int32(layout.bytesPerRow), 0, 0, 0))
        return destination
    }

    /// A swscale context that turns `key.format` into GRAY8 of the same size, keeping the
    /// luma range (see the type's comment).
    private static func makeConverter(for key: ConverterKey) -> OpaquePointer? {
        let flags = SWS_POINT | SWS_ACCURATE_RND | SWS_BITEXACT
        guard let context = sws_getContext(
            key.width, key.height, AVPixelFormat(rawValue: key.format),
            key.width, key.height, AV_PIX_FMT_GRAY8, Int32(flags), nil, nil, nil)
        else { return nil }
        // swscale takes GRAY8 as full range, so RGB and palette sources already come out right;
        // for YUV sources say the range stays what it is.
        if !cvio_pixel_format_is_rgb_or_palette(AVPixelFormat(rawValue: key.format)) {
            let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
            let range: Int32 = key.fullRange ? 1 : 0
            sws_setColorspaceDetails(context, coefficients, range, coefficients, range, 0, 1 << 16, 1 << 16)
        }
        return context
    }

    /// The deprecated "j" formats mean full range without saying so in `color_range`.
    private static func isFullRangeFormat(_ format: AVPixelFormat) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]
            .contains(format)
    }
}
