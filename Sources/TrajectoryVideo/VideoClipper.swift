import Foundation
import CFFmpeg
import TrajectoryDrawing
import TrajectoryKit

/// Cuts pieces of a video into files of their own: by stream copy (no quality lost, fast)
/// when a keyframe lies at or shortly before a piece's start, re-encoded otherwise.
///
/// Times are seconds from the stream's start, as ``FrameStamp/time`` and the JSON reports
/// count them. A piece holds every frame whose time lies in its range; its timestamps start at
/// 0, and the file's `trajectories_source_start` tag says which source time its first frame
/// shows. Only the video stream is kept.
///
/// ```swift
/// let clips = try VideoClipper.cut(uri: "match.mp4", pieces: [.init(path: "rally.mp4", start: 12.5, end: 14)])
/// ```
public enum VideoClipper {
    /// One piece to cut.
    public struct Piece: Sendable, Hashable {
        /// The file to write (its extension picks the container).
        public var path: String
        /// Seconds from the stream's start.
        public var start: Double
        public var end: Double

        public init(path: String, start: Double, end: Double) {
            self.path = path
            self.start = start
            self.end = end
        }
    }

    /// How a piece was made.
    public enum Method: String, Sendable, Hashable, Codable {
        /// Packets copied from the keyframe at or before the start: the piece may begin up to
        /// `maximumLeadIn` seconds early.
        case streamCopy = "stream copy"
        /// Decoded and encoded again (the nearest keyframe was too far before the start).
        case reEncoded = "re-encoded"
    }

    /// A piece as written.
    public struct Clip: Sendable, Hashable {
        public var path: String
        public var method: Method
        /// The source time of the clip's first frame, in seconds from the stream's start.
        public var sourceStart: Double
        /// Frames written.
        public var frameCount: Int
        /// The source time of the first frame read to make the clip, in seconds from the
        /// stream's start: for a stream copy its first frame; for a re-encoded clip the first
        /// frame decoded, which is the keyframe at or before the earliest re-encoded piece when
        /// the container lets the reader seek there, and the stream's first frame otherwise.
        /// The re-encoded pieces of one ``VideoClipper/cut(uri:pieces:maximumLeadIn:)`` call
        /// share one pass of decoding, so they share this time.
        public var decodedFrom: Double
    }

    /// The metadata key that records a clip's ``Clip/sourceStart``.
    public static let sourceStartKey = "trajectories_source_start"

    /// Writes every piece of `uri`, in the order given.
    /// - Parameters:
    ///   - maximumLeadIn: how many seconds before a piece's start its keyframe may lie for the
    ///     piece to be stream-copied.
    ///   - readingFromStart: the pieces' times are those a reader gives from the stream's start
    ///     rather than the file's own, because its timestamps go back and the reader set the times
    ///     after forward (``VideoReader/timestampWentBackWarning``). No seek or stream copy can
    ///     find such times, so every piece is then re-encoded from one read from the start.
    ///   - stopper: ends the cutting early from another thread (Ctrl-C). The clips finished
    ///     by then are returned, in the pieces' order; a clip still being written is removed,
    ///     as it would lack the end of its piece, and later pieces are not started. A stream
    ///     copy in progress, a matter of copying packets, is finished first.
    /// - Throws: ``VideoError`` when the video cannot be read or a clip cannot be written, or
    ///   (`.invalidSettings`) when a piece's range is not finite, starts before 0 or ends before it starts.
    public static func cut(
        uri: String, pieces: [Piece], maximumLeadIn: Double = 1, readingFromStart: Bool = false, stopper: RunStopper? = nil
    ) throws(VideoError) -> [Clip] {
        if let piece = pieces.first(where: { !($0.start.isFinite && $0.end.isFinite && 0 <= $0.start && $0.start <= $0.end) }) {
            throw VideoError(.invalidSettings, uri: piece.path, detail: "its range \(piece.start)…\(piece.end) s is not a span of the video")
        }
        var clips: [Clip?] = Array(repeating: nil, count: pieces.count)
        var toEncode: [Int] = []
        for (index, piece) in pieces.enumerated() {
            if stopper?.isRequested == true { return clips.compactMap { $0 } }
            if !readingFromStart, let clip = try StreamCopy.cut(uri: uri, piece: piece, maximumLeadIn: maximumLeadIn) {
                clips[index] = clip
            } else {
                toEncode.append(index)
            }
        }
        let encoded = try reEncode(
            uri: uri, pieces: toEncode.map { pieces[$0] }, seeking: !readingFromStart, stopper: stopper)
        for (index, clip) in encoded.enumerated() {
            clips[toEncode[index]] = clip
        }
        return clips.compactMap { $0 }
    }

    /// Decodes `uri` once and encodes every piece from the frames in its range.
    ///
    /// Decoding starts at the keyframe before the earliest piece rather than at the stream's
    /// start: a piece an hour into a match would otherwise cost an hour of decoding. Should that
    /// seek fail, or give a first frame after the piece's start or without a timestamp (a
    /// container whose index is off), the video is read again from its start.
    /// Each clip is nil when a stop came before it was whole. Without `seeking`, the video is
    /// read from its start.
    private static func reEncode(uri: String, pieces: [Piece], seeking: Bool, stopper: RunStopper?) throws(VideoError) -> [Clip?] {
        guard let earliestStart = pieces.map(\.start).min() else { return [] }
        if seeking, earliestStart > 0, let clips = try reEncode(uri: uri, pieces: pieces, seekingTo: earliestStart, stopper: stopper) {
            return clips
        }
        // Read from the start, with nothing to check, this gives the clips.
        return try reEncode(uri: uri, pieces: pieces, seekingTo: nil, stopper: stopper)!
    }

    /// The pieces, decoded from the keyframe at or before `seekTarget` (from the start when it
    /// is nil or the reader does not try to seek). Nil, with nothing written, when the seek
    /// failed or its first frame cannot be trusted: none, one without a timestamp, or one
    /// after `seekTarget`.
    private static func reEncode(
        uri: String, pieces: [Piece], seekingTo seekTarget: Double?, stopper: RunStopper?
    ) throws(VideoError) -> [Clip?]? {
        var reader = try PictureReader(uri: uri)
        let timing = reader.timing
        // A frame exactly at a piece's start or end belongs to it.
        let tolerance = FrameClock.sameInstant
        // After a seek, the latest time the first frame may have.
        var firstFrameLimit: Double?
        if let seekTarget {
            switch reader.seek(toKeyframeAtOrBefore: seekTarget) {
            case .seeked: firstFrameLimit = seekTarget + tolerance
            case .notTried: break
            case .failed: return nil
            }
        }
        var picture = YUVPicture(width: 1, height: 1)
        var decodedFrom: Double?
        let open = OpenClips(count: pieces.count)
        let lastEnd = pieces.map(\.end).max()!
        // The time of the latest frame read; after a stop, the pieces ending before it are whole.
        var latestTime: Double?
        // Whether the stop ended the reading, as decided there: a stop asked for once the
        // reading is over comes too late to cut any piece short.
        var stopped = false
        while let frame = try reader.next(into: &picture, unlessStoppedBy: stopper, stopped: &stopped) {
            if decodedFrom == nil { decodedFrom = frame.stamp.time }
            latestTime = frame.stamp.time
            if let limit = firstFrameLimit {
                guard frame.timestamp != nil, frame.stamp.time <= limit else { return nil }
                firstFrameLimit = nil
            }
            guard frame.stamp.time <= lastEnd + tolerance else { break }
            for (index, piece) in pieces.enumerated() where piece.start - tolerance <= frame.stamp.time && frame.stamp.time <= piece.end + tolerance {
                try open.append(picture, frame: frame, to: index, path: piece.path, timing: timing)
            }
        }
        // No frame at all after the seek.
        if firstFrameLimit != nil { return stopped ? pieces.map { _ in nil } : nil }
        return try pieces.indices.map { index throws(VideoError) in
            if stopped, (latestTime ?? -.infinity) <= pieces[index].end + tolerance {
                // The stop came before the piece's end: the clip would lack the rest of it.
                try open.discard(index)
                return nil
            }
            guard let clip = try open.finish(index, decodedFrom: decodedFrom ?? 0) else {
                throw VideoError(.readFailed, uri: uri, detail: "no frame lies in \(pieces[index].start)…\(pieces[index].end) s for \(pieces[index].path)")
            }
            return clip
        }
    }
}

/// The re-encoded clips being written, each opened on its first frame. A class so that the
/// non-copyable writers can live in a collection.
private final class OpenClips {
    private final class Entry {
        var writer: PictureVideoWriter?  // nil once finished
        let sourceStart: Double
        let firstTimestamp: Int64?
        /// The clip's timestamp of the frame written last.
        var lastTimestamp: Int64?

        init(writer: consuming PictureVideoWriter, sourceStart: Double, firstTimestamp: Int64?) {
            self.writer = consume writer
            self.sourceStart = sourceStart
            self.firstTimestamp = firstTimestamp
        }
    }

    private var entries: [Entry?]

    init(count: Int) {
        entries = Array(repeating: nil, count: count)
    }

    func append(
        _ picture: YUVPicture, frame: PictureReader.Frame, to index: Int, path: String, timing: StreamTiming
    ) throws(VideoError) {
        if entries[index] == nil {
            let writer = try PictureVideoWriter(
                path: path, width: picture.width, height: picture.height, timing: timing, encoding: picture.encoding,
                metadata: [VideoClipper.sourceStartKey: VideoClipper.formatSeconds(frame.stamp.time)])
            entries[index] = Entry(writer: writer, sourceStart: frame.stamp.time, firstTimestamp: frame.timestamp)
        }
        let entry = entries[index]!
        // Timestamps start at 0 in the clip. Wrapping: a damaged stream's far-apart timestamps
        // must not trap, and the writer keeps a clip's times increasing whatever it is given.
        var timestamp = frame.timestamp.map { $0 &- (entry.firstTimestamp ?? 0) }
        // Where the stream's own go back inside the piece (a splice), the frame's time as read,
        // which the reader keeps going forward, places it instead.
        if let stamped = timestamp, let last = entry.lastTimestamp, stamped <= last {
            timestamp = Int64(ticks: ((frame.stamp.time - entry.sourceStart) / timing.timeBase.value).rounded())
        }
        entry.lastTimestamp = timestamp
        try entry.writer!.append(picture, timestamp: timestamp)
    }

    /// Closes clip `index`, if it was opened, and removes its file: a stop came before its
    /// piece's end.
    func discard(_ index: Int) throws(VideoError) {
        guard let entry = entries[index] else { return }
        entries[index] = nil
        guard let writer = entry.writer.take() else { return }
        let path = writer.path
        try writer.finish()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Finishes clip `index`, whose source was decoded from `decodedFrom` seconds; nil when no
    /// frame was in its range.
    func finish(_ index: Int, decodedFrom: Double) throws(VideoError) -> VideoClipper.Clip? {
        guard let entry = entries[index] else { return nil }
        entries[index] = nil
        guard let writer = entry.writer.take() else { return nil }
        let path = writer.path, frames = writer.framesWritten
        try writer.finish()
        return VideoClipper.Clip(
            path: path, method: .reEncoded, sourceStart: entry.sourceStart, frameCount: frames, decodedFrom: decodedFrom)
    }
}

extension VideoClipper {
    /// Seconds as the metadata tag writes them: six decimals.
    static func formatSeconds(_ seconds: Double) -> String {
        let micro = Int64((seconds * 1_000_000).rounded())
        let sign = micro < 0 ? "-" : ""
        let whole = abs(micro) / 1_000_000, fraction = abs(micro) % 1_000_000
        let digits = String(fraction)
        return "\(sign)\(whole).\(String(repeating: "0", count: 6 - digits.count))\(digits)"
    }
}

extension VideoClipper {
    /// The source time a clip written by ``cut(uri:pieces:maximumLeadIn:)`` starts at, read
    /// from its `trajectories_source_start` tag; nil when the file has no such tag.
    /// - Throws: ``VideoError`` when the file cannot be opened.
    public static func sourceStart(ofClip path: String) throws(VideoError) -> Double? {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, FFmpegURL.ofFile(path), nil, nil)) { message in VideoError(.readFailed, uri: path, detail: message) }
        defer { avformat_close_input(&context) }
        guard let entry = av_dict_get(context?.pointee.metadata, sourceStartKey, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return Double(String(cString: value))
    }
}
