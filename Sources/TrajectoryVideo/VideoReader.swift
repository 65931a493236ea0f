import CFFmpeg
import CVideoIO
import TrajectoryKit

/// Decodes a video frame by frame and lends out each frame's 8-bit luma plane, as a player
/// would show it (display rotation applied), with its presentation time: seconds from the
/// stream's start, never going back (where a damaged or spliced stream's timestamps do, the
/// times after continue from the frame before, with ``timestampWentBackWarning``).
///
/// Opens a file path, any URL FFmpeg understands, or `-` for standard input. Picks the best
/// video stream and ignores the others (audio). Decoding is threaded; the luma plane is lent
/// without copying whenever the decoded format allows (see ``nextFrame(_:)``).
///
/// ```swift
/// var reader = try VideoReader(uri: "swing.mp4")
/// while let found = try reader.nextFrame({ plane, layout, stamp in detector.detect(plane, layout, stamp) }) {
///     …
/// }
/// for warning in reader.warnings { print("warning: \(warning)") }
/// ```
///
/// The reader owns every FFmpeg object it uses and frees them when it goes away; no pointer
/// to FFmpeg's memory leaves the closure it is lent to (within this module, a decoded frame
/// may be taken over whole, see `nextFrame(handingOver:)`). It is not copyable, and may be
/// moved to another thread between calls.
public struct VideoReader: ~Copyable {
    /// What the video is, known once it is open.
    public let info: VideoInfo
    private var demuxer: Demuxer
    private var decoder: Decoder
    private var luma: LumaPlaneExtractor
    private var clock: FrameClock
    private let log: WarningLog
    private var phase = Phase.reading
    private var damagedPackets = 0
    /// Frames decoded so far.
    public private(set) var framesRead = 0
    /// Whether ``seek(toKeyframeAtOrBefore:)`` skipped part of the stream.
    private var hasSeeked = false
    /// Set when the reader decodes only some segments of the stream (``decodeOnly(lane:sharing:atCut:)``).
    private var lane: Lane?
    /// A clock as the reader's was before the first frame: stamps frames decoded elsewhere as
    /// this reader would have.
    let clockAtStart: FrameClock

    private enum Phase {
        case reading  // packets are fed from the demuxer
        case endingSegment  // the lane's segment ended; the decoder gives back its frames
        case draining  // the input ended; the decoder gives back the frames it holds
        case finished
    }

    /// Which segments of the stream a reader decodes, when it decodes only some.
    private struct Lane {
        let index: Int
        let shares: SegmentShares
        /// Called with the segment a packet starts, before it is decided whose it is.
        let atCut: ((Int) -> Void)?
        var boundaries: SegmentBoundaries
        /// The segment of the packets last fed to the decoder: the one its frames belong to.
        var segment = 0
        /// Whether the decoder was fed packets since it was last emptied.
        var decoderHoldsPackets = false
    }

    /// Whether `uri` can be read only once (standard input, a pipe, a named pipe or a device),
    /// so that a second pass over it, to draw or to cut clips, cannot be made.
    public static func isReadOnce(_ uri: String) -> Bool { InputLocation.isReadOnce(uri) }

    /// The local file's path when `uri` names one (a path, or a `file:` URL), else nil.
    public static func localPath(of uri: String) -> String? { FFmpegURL.localPath(of: uri) }

    /// Seconds a read from a network URL may wait for data, unless the caller says otherwise.
    public static let defaultNetworkTimeout = 30.0

    /// Opens `uri`: a path, a URL FFmpeg understands (`file:`, `http:`, `pipe:3`, …) or `-` for
    /// standard input.
    /// - Parameter networkTimeout: seconds a read from a network URL may wait for data; a stream
    ///   that stalls longer ends (with an error while opening, a warning later) instead of
    ///   hanging. Files and pipes wait as long as their writer needs.
    /// - Throws: ``VideoError`` naming `uri` when it is missing, unreadable, empty, not a video,
    ///   has no video stream, uses a codec without a decoder, or sends nothing in time.
    public init(uri: String, networkTimeout: Double = defaultNetworkTimeout, loopFilter: LoopFilter = .applied) throws(VideoError) {
        try self.init(uri: uri, networkTimeout: networkTimeout, stopSignal: nil, loopFilter: loopFilter)
    }

    /// What `uri` is, as ``info`` gives it, read without letting FFmpeg decode a picture larger
    /// than twice ``VideoTrajectoryDetection/defaultMaximumFramePixels`` while it probes the input.
    ///
    /// Probing decodes a stream's first pictures, and a hostile or mistaken header can claim
    /// one of any size the codec allows: a 16 000 × 16 000 H.264 stream took 680 MB to describe.
    /// Its size, codec and rate come from its headers all the same.
    public static func describe(uri: String, networkTimeout: Double = defaultNetworkTimeout) throws(VideoError) -> VideoInfo {
        let bound = FrameSizeLimit.decodedPixelLimit(allowing: VideoTrajectoryDetection.defaultMaximumFramePixels)
        var reader = try VideoReader(
            uri: uri, networkTimeout: networkTimeout, stopSignal: nil, probePixelLimit: bound, needsFrames: false)
        var info = reader.info
        // A stream that states no size (a capture joined mid-broadcast, before its parameter
        // sets) gives it with its first decodable frame, as detect would measure it.
        if info.width == 0 || info.height == 0, let (frame, _) = reader.nextDecodedFrame() {
            (info.width, info.height) = VideoInfo.displayedSize(
                width: Int(frame.pointee.width), height: Int(frame.pointee.height), rotation: info.rotation)
            if let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.pointee.format)) {
                info.pixelFormat = String(cString: name)
            }
        }
        return info
    }

    /// Opens `uri` as ``init(uri:networkTimeout:)`` does; once `stopSignal` is raised, a network
    /// read waiting for data fails at once (see ``StopSignal``). The decoder runs on
    /// `decoderThreads` threads (0: FFmpeg's choice, one more than the machine has cores).
    /// With a `sizeLimit`, a video whose frames exceed it is refused before its decoder opens,
    /// and FFmpeg decodes no far larger picture even while it probes the input. Without one,
    /// `probePixelLimit` bounds the pictures FFmpeg decodes, while it probes and after, and
    /// nothing is refused (see ``describe(uri:networkTimeout:)``). A reader that `needsFrames` refuses an
    /// input whose frames cannot be read at all: an MP4 piped in with its index at the end.
    init(
        uri: String, networkTimeout: Double, stopSignal: StopSignal?, decoderThreads: Int = 0,
        loopFilter: LoopFilter = .applied, sizeLimit: FrameSizeLimit? = nil, probePixelLimit: Int? = nil,
        needsFrames: Bool = true
    ) throws(VideoError) {
        let log = WarningLog()
        let demuxer = try log.collecting { () throws(VideoError) in
            try Demuxer(
                uri: uri, networkTimeout: networkTimeout, log: log, stopSignal: stopSignal,
                decodedPixelLimit: sizeLimit?.decodedPixelLimit ?? probePixelLimit)
        }
        if needsFrames && demuxer.framesAreUnreachable {
            throw VideoError(
                .readFailed, uri: uri,
                detail: "its index (moov) comes after its frames, and this input cannot seek back to them; "
                    + "give the file's path, or move the index first with `ffmpeg -i in.mp4 -c copy -movflags +faststart out.mp4`")
        }
        let stream = UnsafePointer(demuxer.videoStream)
        // The stated size, which probing has read from the stream's own headers.
        try sizeLimit?.check(width: Int(stream.pointee.codecpar.pointee.width), height: Int(stream.pointee.codecpar.pointee.height))
        let decoder = try log.collecting { () throws(VideoError) in
            try Decoder(
                codec: demuxer.codec, stream: stream, uri: uri, log: log, threads: decoderThreads, loopFilter: loopFilter,
                decodedPixelLimit: sizeLimit?.decodedPixelLimit ?? probePixelLimit)
        }
        let rotation = Self.displayRotation(of: stream, log: log)
        let info = Self.describe(stream, uri: uri, rotation: rotation, demuxer: demuxer, decoder: decoder)
        let startTime = stream.pointee.start_time
        self.clock = FrameClock(
            secondsPerTick: av_q2d(stream.pointee.time_base),
            startTime: startTime == FFmpegCode.noTimestamp ? nil : startTime,
            frameRate: info.frameRate)
        self.clockAtStart = clock
        self.info = info
        self.luma = LumaPlaneExtractor(rotation: rotation)
        self.demuxer = demuxer
        self.decoder = decoder
        self.log = log
    }

    /// Problems met that did not stop decoding, oldest first: a truncated file, packets the
    /// decoder rejected, FFmpeg's error messages. Each is one line; repeats are counted.
    public var warnings: [String] { log.messages }

    /// The warning for frames whose times were set forward (``FrameStamp``s never go back):
    /// without the frame's number, so that many such frames make one warning, counted.
    public static let timestampWentBackWarning =
        "a frame's timestamp goes back (a damaged or spliced stream): the times after it continue "
        + "from the frame before, and differ from the file's own"

    /// Decodes the next frame in presentation order and lends its luma plane to `body`.
    ///
    /// The plane is 8-bit grey, `layout.height` rows of `layout.width` pixels, `bytesPerRow`
    /// apart, as the video is displayed (`info.width` × `info.height` unless the stream changes
    /// size). It is valid only inside `body`: the reader reuses the memory for the next frame.
    ///
    /// - Returns: what `body` returns, or nil at the end of the stream.
    /// - Throws: what `body` throws, or a ``VideoError`` if a frame cannot be converted.
    ///   Damaged data does not throw: damaged packets are skipped (or concealed by the
    ///   decoder), a truncated file ends early, and both add to ``warnings``.
    public mutating func nextFrame<Result>(
        _ body: (Span<UInt8>, PlaneLayout, FrameStamp) throws -> Result
    ) throws -> Result? {
        try nextFrame(handingOver: { plane, layout, stamp, _ in try body(plane, layout, stamp) })
    }

    /// A decoded frame whose luma plane is lent where the decoder put it: moving the frame out
    /// (`av_frame_move_ref`) keeps `plane` valid for as long as the new owner holds the frame.
    struct FrameHandOver {
        let frame: UnsafeMutablePointer<AVFrame>
        let plane: UnsafePointer<UInt8>
    }

    /// Decodes the next frame like ``nextFrame(_:)``; when its luma plane is the decoded frame's
    /// own (8-bit luma, unrotated), `body` also gets the frame, to take over and keep the plane.
    mutating func nextFrame<Result>(
        handingOver body: (Span<UInt8>, PlaneLayout, FrameStamp, FrameHandOver?) throws -> Result
    ) throws -> Result? {
        guard let (_, stamp) = nextDecodedFrame() else { return nil }
        return try lendLumaPlane { plane, layout, handOver in try body(plane, layout, stamp, handOver) }
    }

    /// Lends the decoded frame's displayed luma plane to `body`, with the frame to take over
    /// when the plane is the decoder's own.
    private mutating func lendLumaPlane<Result>(
        _ body: (Span<UInt8>, PlaneLayout, FrameHandOver?) throws -> Result
    ) throws -> Result {
        if let (plane, layout) = luma.displayedPlaneInPlace(of: decoder.frame) {
            let pixels = UnsafeBufferPointer(start: plane, count: layout.minimumByteCount)
            return try body(pixels.span, layout, FrameHandOver(frame: decoder.frameToTakeOver, plane: plane))
        }
        return try luma.withLumaPlane(of: decoder.frame, uri: info.uri) { plane, layout in
            try body(UnsafeBufferPointer(start: plane, count: layout.minimumByteCount).span, layout, nil)
        }
    }

    /// Decodes the next frame and returns a copy of its luma plane, or nil at the end.
    /// Allocates an image per frame: for tests and tools, not for the detection loop.
    public mutating func nextImage() throws -> (image: LumaImage, stamp: FrameStamp)? {
        try nextFrame { plane, layout, stamp in
            let pixels = [UInt8](unsafeUninitializedCapacity: layout.width * layout.height) { image, count in
                plane.withUnsafeBufferPointer { plane in
                    for row in 0..<layout.height {
                        let source = UnsafeBufferPointer(rebasing: plane[(row * layout.bytesPerRow)...].prefix(layout.width))
                        _ = UnsafeMutableBufferPointer(rebasing: image[(row * layout.width)...]).initialize(fromContentsOf: source)
                    }
                }
                count = layout.width * layout.height
            }
            return (LumaImage(width: layout.width, height: layout.height, pixels: pixels), stamp)
        }
    }

    /// Makes the reader decode only the segments that `shares` gives lane `index`, 0 or 1
    /// (see ``SegmentBoundaries``). Readers of the same stream, one per lane, together decode
    /// every frame once. `atCut` is called on the reading thread with each segment as its
    /// first packet is read, before the segment's lane is asked: the place to start the
    /// alternation there. Returns false, and changes nothing, when the stream cannot be cut
    /// into segments, or the reader has begun reading.
    mutating func decodeOnly(lane index: Int, sharing shares: SegmentShares, atCut: ((Int) -> Void)? = nil) -> Bool {
        guard lane == nil, framesRead == 0, !hasSeeked, phase == .reading, (0...1).contains(index) else {
            return false
        }
        let parameters = demuxer.videoStream.pointee.codecpar.pointee
        let extradata = UnsafeRawBufferPointer(start: parameters.extradata, count: Int(max(0, parameters.extradata_size)))
        guard let syntax = SegmentBoundaries.Syntax(codecID: parameters.codec_id),
              let boundaries = SegmentBoundaries(syntax: syntax, extradata: extradata)
        else { return false }
        lane = Lane(index: index, shares: shares, atCut: atCut, boundaries: boundaries)
        return true
    }

    /// The segment of the last packet read, in a lane's reader: the stream has been cut that
    /// many times so far.
    var latestSegment: Int { lane?.boundaries.segment ?? 0 }

    /// Where a frame decoded by a lane's reader belongs in the stream.
    struct LanePlace {
        /// The segment it belongs to: that of the last packet fed to the decoder. While one
        /// lane decodes two segments in a row, the last frames of the first, given back after
        /// the second's first packet, are counted in the second; they come from the same queue
        /// in the same order, so the analysing side takes them all the same (``LaneMerger``).
        /// A lane that stops at a segment's end empties its decoder first, so every frame it
        /// queues before another lane's segment is counted in its own.
        var segment: Int
        /// Its presentation timestamp in the stream's time base, when it has one.
        var timestamp: Int64?
    }

    /// Decodes the next frame of the reader's lane (``decodeOnly(lane:sharing:atCut:)``) and lends its luma
    /// plane to `body` with its place in the stream, unstamped: only the frames of every lane
    /// together, in order, can be stamped (``clockAtStart``). As `nextFrame(handingOver:)`
    /// does, gives the frame too when its plane is the decoder's own.
    mutating func nextLaneFrame<Result>(
        _ body: (Span<UInt8>, PlaneLayout, LanePlace, FrameHandOver?) throws -> Result
    ) throws -> Result? {
        let log = self.log
        guard log.collecting({ decodeNextFrame() }) else { return nil }
        framesRead += 1
        let timestamp = decoder.frame.pointee.best_effort_timestamp
        let place = LanePlace(segment: lane?.segment ?? 0, timestamp: timestamp == FFmpegCode.noTimestamp ? nil : timestamp)
        return try lendLumaPlane { plane, layout, handOver in try body(plane, layout, place, handOver) }
    }

    /// Decodes the next frame and returns it as decoded (not rotated) with its stamp, or nil
    /// at the end. For readers of whole pictures (``PictureReader``): the frame is valid until
    /// the next call.
    mutating func nextDecodedFrame() -> (frame: UnsafePointer<AVFrame>, stamp: FrameStamp)? {
        let log = self.log
        guard log.collecting({ decodeNextFrame() }) else { return nil }
        let timestamp = decoder.frame.pointee.best_effort_timestamp
        let (stamp, wentBack) = clock.stamp(index: framesRead, timestamp: timestamp == FFmpegCode.noTimestamp ? nil : timestamp)
        if wentBack { log.add(Self.timestampWentBackWarning) }
        framesRead += 1
        return (decoder.frame, stamp)
    }

    /// What ``seek(toKeyframeAtOrBefore:)`` did.
    public enum SeekOutcome: Sendable, Hashable {
        /// The next frames decoded are those from the keyframe on.
        case seeked
        /// Nothing was tried, and the reader reads on from where it was.
        case notTried
        /// FFmpeg could not seek, and may have moved the input while trying: the reader is no
        /// longer fit to read from, and should be opened again.
        case failed
    }

    /// Moves to the keyframe at or before `seconds` from the stream's start, so that the frames
    /// decoded next are those from it on. It is not tried when the stream states no start time,
    /// the input has ended, `seconds` is not a time in the stream, or FFmpeg holds no index
    /// entries for the stream (MPEG-TS, read as it comes, has none: a seek by timestamp could
    /// land between two keyframes, where the frames decoded until the next would be damaged).
    ///
    /// After a seek, frame times stay seconds from the stream's start, but frame indices count
    /// the frames decoded, so they no longer give a frame's place in the stream, and neither
    /// does the time of a frame without a timestamp.
    public mutating func seek(toKeyframeAtOrBefore seconds: Double) -> SeekOutcome {
        guard phase == .reading, demuxer.hasIndexEntries, let target = clock.ticks(atSeconds: seconds) else {
            return .notTried
        }
        guard demuxer.seekToKeyframe(atOrBefore: target) >= 0 else { return .failed }
        decoder.flush()
        clock.forgetLastFrame()
        hasSeeked = true
        return .seeked
    }

    /// The video stream's time base (timestamps count in it) and its stated frame rate.
    var streamTiming: (timeBase: AVRational, frameRate: AVRational) {
        let stream = demuxer.videoStream.pointee
        return (stream.time_base, Self.statedFrameRate(of: stream) ?? stream.r_frame_rate)
    }

    // MARK: - Decoding

    /// Runs the demuxer and decoder until the decoder has a frame; false at the end.
    private mutating func decodeNextFrame() -> Bool {
        var failuresInARow = 0
        while phase != .finished {
            let received = decoder.receiveFrame()
            if received >= 0 {
                if cvio_frame_is_corrupt(decoder.frame) {
                    log.add("a frame was damaged; the decoder concealed the errors")
                }
                return true
            }
            if received == FFmpegCode.endOfFile {
                if phase == .endingSegment {
                    // The lane's segment is out; the decoder takes the lane's next one afresh.
                    decoder.flush()
                    phase = .reading
                    continue
                }
                finish()
                return false
            }
            if received == FFmpegCode.again {
                feedDecoder()
                continue
            }
            // A damaged packet: FFmpeg has said why; skip it and go on with the next ones.
            damagedPackets += 1
            failuresInARow += 1
            if failuresInARow > Self.failuresBeforeGivingUp {
                log.add("decoding stopped\(framesSoFar): \(FFmpegCode.message(received))")
                finish()
                return false
            }
        }
        return false
    }

    /// Decoding errors in a row, with no frame between them, after which the rest of the
    /// stream is taken to be beyond repair.
    private static let failuresBeforeGivingUp = 100

    /// Gives the decoder the next packet, or tells it the input has ended.
    private mutating func feedDecoder() {
        guard phase == .reading else {
            finish()  // a drained decoder asking for more input has nothing left
            return
        }
        var read = demuxer.readVideoPacket()
        while read >= 0 && lane != nil && !packetIsThisLanes() {
            if phase == .endingSegment { return }
            read = demuxer.readVideoPacket()
        }
        if read >= 0 {
            if decoder.send(demuxer.packet) < 0 {
                damagedPackets += 1  // FFmpeg has said why; the next packet may decode
            }
            return
        }
        // Every lane reads the same packets: the first lane alone tells of the input's end.
        if read != FFmpegCode.endOfFile && (lane?.index ?? 0) == 0 {
            log.add("reading stopped\(framesSoFar): \(FFmpegCode.message(read))")
        }
        phase = .draining
        _ = decoder.send(nil)
    }

    /// Whether the packet just read belongs to a segment of this reader's lane; when it is the
    /// first packet past one, starts the decoder giving back that segment's last frames.
    private mutating func packetIsThisLanes() -> Bool {
        guard var lane else { return true }
        defer { self.lane = lane }
        let packet = demuxer.packet.pointee
        let previous = lane.boundaries.segment
        let segment = lane.boundaries.segment(ofPacket: UnsafeRawBufferPointer(start: packet.data, count: Int(packet.size)))
        if segment != previous { lane.atCut?(segment) }
        if lane.shares.lane(of: segment) == lane.index {
            lane.segment = segment
            lane.decoderHoldsPackets = true
            return true
        }
        if lane.decoderHoldsPackets {
            lane.decoderHoldsPackets = false
            phase = .endingSegment
            _ = decoder.send(nil)
        }
        return false
    }

    /// " after N frames", where the reader's count of frames tells where the stream stopped:
    /// not for a lane's reader once the lanes alternate, when it decodes only some of them.
    private var framesSoFar: String {
        lane == nil || lane?.shares.firstAlternatingSegment == nil ? " after \(framesRead) frames" : ""
    }

    /// Notes, once, what the finished stream says about the file's health.
    private mutating func finish() {
        guard phase != .finished else { return }
        phase = .finished
        if damagedPackets > 0 {
            log.add("the decoder rejected \(damagedPackets) damaged packets")
        }
        // A lane's reader decodes only some of the frames: their sum is checked (``DecodingLanes``).
        if lane == nil, !hasSeeked, let warning = Self.endsEarlyWarning(info: info, framesRead: framesRead, clock: clock) {
            log.add(warning)
        }
        if lane == nil, demuxer.endsPartWayThroughTransportPacket {
            log.add("the input ends part way through a transport-stream packet, as one cut short does: its last frames may be missing")
        }
    }

    /// The warning for a stream that ended before the frames its container lists, when
    /// `framesRead` frames were decoded and `clock` stamped the last.
    static func endsEarlyWarning(info: VideoInfo, framesRead: Int, clock: FrameClock) -> String? {
        // An AVI counts time slots, not frames: one whose writer dropped a frame lists one
        // more than it holds, though its last frame lasts until its stated end.
        let reachedStatedEnd = info.duration > 0 && clock.lastFrameReaches(info.duration)
        guard info.frameCountSource == .container, framesRead < info.frameCount, !reachedStatedEnd else { return nil }
        return "the file ends early: decoded \(framesRead) of the \(info.frameCount) frames the container lists"
    }

    // MARK: - Describing the stream

    /// The display matrix's rotation, to the nearest quarter turn.
    private static func displayRotation(of stream: UnsafePointer<AVStream>, log: WarningLog) -> Int {
        let degrees = cvio_stream_display_rotation(stream)
        let quarterTurns = Int((degrees / 90).rounded())
        if abs(degrees - Double(quarterTurns * 90)) > 1 {
            log.add("the display rotation of \(degrees)° is applied as \(quarterTurns * 90 % 360)°")
        }
        return quarterTurns * 90 % 360
    }

    /// The stream's average frame rate, or else its base rate, when it states a usable one.
    private static func statedFrameRate(of stream: AVStream) -> AVRational? {
        [stream.avg_frame_rate, stream.r_frame_rate].first { $0.num > 0 && $0.den > 0 }
    }

    private static func describe(
        _ stream: UnsafePointer<AVStream>, uri: String, rotation: Int, demuxer: borrowing Demuxer,
        decoder: borrowing Decoder
    ) -> VideoInfo {
        let parameters = stream.pointee.codecpar.pointee
        let frameRate = statedFrameRate(of: stream.pointee).map { av_q2d($0) } ?? 0
        let streamDuration = stream.pointee.duration
        let duration = streamDuration > 0 && streamDuration != FFmpegCode.noTimestamp
            ? Double(streamDuration) * av_q2d(stream.pointee.time_base) : demuxer.containerDuration ?? 0
        let (frameCount, frameCountSource): (Int, VideoInfo.FrameCountSource) =
            if stream.pointee.nb_frames > 0 { (Int(stream.pointee.nb_frames), .container) }
            else if duration > 0 && frameRate > 0 { (Int((duration * frameRate).rounded()), .estimate) }
            else { (0, .unknown) }
        let format = parameters.format >= 0 ? AVPixelFormat(rawValue: parameters.format) : decoder.pixelFormat
        let shown = VideoInfo.displayedSize(width: Int(parameters.width), height: Int(parameters.height), rotation: rotation)
        return VideoInfo(
            uri: uri, width: shown.width, height: shown.height,
            frameRate: frameRate, frameCount: frameCount, frameCountSource: frameCountSource, duration: duration,
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            pixelFormat: av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown",
            rotation: rotation)
    }
}

// The reader's FFmpeg objects belong to it alone and are not tied to the thread that made
// them, so a reader may move to another thread; being ~Copyable, it is never shared.
extension VideoReader: @unchecked Sendable {}
