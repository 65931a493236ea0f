import CFFmpeg
import TrajectoryDrawing
import TrajectoryKit

/// Decodes a video frame by frame into colour pictures as a player shows them (8-bit YUV
/// 4:2:0, display rotation applied), with each frame's timestamp as the stream counts it, so
/// that a ``PictureVideoWriter`` can write the same frames at the same times.
///
/// ```swift
/// var reader = try PictureReader(uri: "swing.mp4")
/// var picture = YUVPicture(width: 1, height: 1)
/// while let frame = try reader.next(into: &picture) { … draw on picture … }
/// ```
///
/// Opens what ``VideoReader`` opens. Decoding into the same picture again and again allocates
/// nothing once its size is known.
public struct PictureReader: ~Copyable {
    /// One decoded frame's place in time.
    public struct Frame: Sendable, Hashable {
        /// Index in presentation order and seconds since the stream's start.
        public var stamp: FrameStamp
        /// The frame's timestamp in ``PictureReader/timing``'s time base, as stored (nil when
        /// it has none).
        public var timestamp: Int64?
    }

    private var reader: VideoReader
    private var converter: PictureConverter

    /// Opens `uri` like ``VideoReader/init(uri:networkTimeout:)``.
    public init(uri: String, networkTimeout: Double = VideoReader.defaultNetworkTimeout) throws(VideoError) {
        let reader = try VideoReader(uri: uri, networkTimeout: networkTimeout)
        converter = PictureConverter(rotation: reader.info.rotation)
        self.reader = reader
    }

    /// What the video is.
    public var info: VideoInfo { reader.info }

    /// The stream's time base and frame rate.
    public var timing: StreamTiming {
        let (timeBase, frameRate) = reader.streamTiming
        return StreamTiming(
            timeBase: Rational(timeBase.num, timeBase.den),
            frameRate: frameRate.num > 0 && frameRate.den > 0 ? Rational(frameRate.num, frameRate.den) : nil)
    }

    /// Problems met that did not stop decoding; see ``VideoReader/warnings``.
    public var warnings: [String] { reader.warnings }

    /// Frames decoded so far.
    public var framesRead: Int { reader.framesRead }

    /// Moves to the keyframe at or before `seconds` from the stream's start; see
    /// ``VideoReader``'s `seek(toKeyframeAtOrBefore:)`.
    public mutating func seek(toKeyframeAtOrBefore seconds: Double) -> VideoReader.SeekOutcome {
        reader.seek(toKeyframeAtOrBefore: seconds)
    }

    /// Decodes the next frame into `picture` (resized to the displayed size), or returns nil
    /// at the end of the stream.
    public mutating func next(into picture: inout YUVPicture) throws(VideoError) -> Frame? {
        guard let (frame, stamp) = reader.nextDecodedFrame() else { return nil }
        try converter.convert(frame, into: &picture, uri: reader.info.uri)
        let timestamp = frame.pointee.best_effort_timestamp
        return Frame(stamp: stamp, timestamp: timestamp == FFmpegCode.noTimestamp ? nil : timestamp)
    }

    /// As ``next(into:)``, but returns nil without reading once `stopper` has been told to stop,
    /// and then sets `stopped`: a loop over the frames ends at the stop as at the stream's end,
    /// and knows afterwards which of the two ended it.
    public mutating func next(
        into picture: inout YUVPicture, unlessStoppedBy stopper: RunStopper?, stopped: inout Bool
    ) throws(VideoError) -> Frame? {
        if stopper?.isRequested == true {
            stopped = true
            return nil
        }
        return try next(into: &picture)
    }
}

extension PictureReader: @unchecked Sendable {}

/// An exact fraction, as FFmpeg counts time.
public struct Rational: Sendable, Hashable {
    public var numerator: Int32
    public var denominator: Int32

    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var value: Double { Double(numerator) / Double(denominator) }

    var av: AVRational { AVRational(num: numerator, den: denominator) }
}

extension Rational: CustomStringConvertible {
    /// "1/90000": how error messages name a time base.
    public var description: String { "\(numerator)/\(denominator)" }
}

/// How a video stream counts time.
public struct StreamTiming: Sendable, Hashable {
    /// Seconds per timestamp tick.
    public var timeBase: Rational
    /// Frames per second as the stream states it, when it does.
    public var frameRate: Rational?

    public init(timeBase: Rational, frameRate: Rational?) {
        self.timeBase = timeBase
        self.frameRate = frameRate
    }
}
