import CFFmpeg
import TrajectoryKit

/// Encodes 8-bit grey frames to a video file: H.264 in MP4 by default, or any
/// ``Format`` the reader must be able to read.
///
/// ```swift
/// var writer = try VideoWriter(path: "scene.mp4", width: 640, height: 360)
/// for image in frames { try writer.append(image) }
/// try writer.finish()
/// ```
///
/// Frames get timestamps 0, 1/rate, 2/rate, … Grey level 0 is black and 255 white; H.264 is
/// written full range so the levels survive the trip. The writer owns every FFmpeg object it
/// uses. Dropping it without ``finish()`` frees them but leaves an unfinished file.
public struct VideoWriter: ~Copyable {
    /// The file written.
    public let path: String
    public let width: Int
    public let height: Int
    public let settings: Settings
    /// Frames appended so far.
    public private(set) var framesWritten = 0
    private var encoder: Encoder
    private var muxer: Muxer
    private let log: WarningLog

    /// Creates `path` (or the URL) for `width` × `height` frames.
    /// - Throws: ``VideoError`` when the settings cannot work, this FFmpeg lacks the encoder, or
    ///   the file cannot be created.
    public init(path: String, width: Int, height: Int, settings: Settings = Settings()) throws(VideoError) {
        if let problem = settings.problem(width: width, height: height) {
            throw VideoError(.invalidSettings, uri: path, detail: problem)
        }
        let log = WarningLog()
        let codec = try Encoder.codec(for: settings.format, path: path)
        var muxer = try log.collecting { () throws(VideoError) in
            try Muxer(path: path, container: settings.container, codec: codec, log: log)
        }
        let globalHeader = muxer.wantsGlobalHeader
        let encoder = try log.collecting { () throws(VideoError) in
            try Encoder(codec: codec, width: width, height: height, settings: settings,
                        globalHeader: globalHeader, path: path, log: log)
        }
        try log.collecting { () throws(VideoError) in
            try muxer.start(encoder: encoder.parameters, rotation: settings.rotation, fastStart: settings.fastStart)
        }
        self.path = path
        self.width = width
        self.height = height
        self.settings = settings
        self.encoder = encoder
        self.muxer = muxer
        self.log = log
    }

    /// Encodes `image` as the next frame.
    /// - Throws: ``VideoError`` if its size differs from the video's or writing fails.
    public mutating func append(_ image: LumaImage) throws(VideoError) {
        try image.pixels.withUnsafeBufferPointer { pixels throws(VideoError) in
            try append(pixels.span, layout: image.layout)
        }
    }

    /// Encodes the grey plane `plane`, laid out as `layout`, as the next frame.
    /// - Throws: ``VideoError`` if its size differs from the video's or writing fails.
    public mutating func append(_ plane: Span<UInt8>, layout: PlaneLayout) throws(VideoError) {
        guard layout.width == width, layout.height == height else {
            throw VideoError(.invalidFrame, uri: path,
                             detail: "a \(layout.width)×\(layout.height) frame does not fit a \(width)×\(height) video")
        }
        guard plane.count >= layout.minimumByteCount else {
            throw VideoError(.invalidFrame, uri: path, detail: "the plane holds fewer bytes than its layout needs")
        }
        let format = settings.format
        let timeBase = encoder.timeBase
        try log.collecting { () throws(VideoError) in
            try plane.withUnsafeBufferPointer { pixels throws(VideoError) in
                try encoder.encodeFrame(filling: { frame in
                    format.writeGrey(pixels.baseAddress!, layout: layout, into: frame)
                }, deliver: { packet throws(VideoError) in
                    try muxer.write(packet, timeBase: timeBase)
                })
            }
        }
        framesWritten += 1
    }

    /// Encodes the frames the encoder still holds, writes the container's trailer (an MP4's
    /// index) and closes the file.
    /// - Throws: ``VideoError`` if any of it fails; the file is then incomplete.
    public consuming func finish() throws(VideoError) {
        try finishWriting(&encoder, into: &muxer, log: log)
    }
}

// Like the reader, the writer's FFmpeg objects belong to it alone and may move between threads.
extension VideoWriter: @unchecked Sendable {}
