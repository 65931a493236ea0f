import TrajectoryDrawing
import TrajectoryKit

/// Draws a run's trajectories over its video: an overlay video of every frame, and a still
/// of the whole run over one representative frame.
///
/// Works from a ``TrajectoryHistory`` recorded while detecting, decoding the video a second
/// time. A second pass is what lets every point be drawn on its own frame: the request
/// reports a trajectory only once it has `trajectoryLength` points, by which time a single
/// pass would already have written its first frames. Memory stays flat: one picture (two with
/// a snapshot) whatever the video's length. The input must be readable twice (a file or URL,
/// not standard input).
///
/// ```swift
/// let outcome = try TrajectoryPictures.render(
///     uri: "swing.mp4", history: history, regionOfInterest: .full, overlayPath: "overlay.mp4", snapshotPath: nil)
/// ```
public enum TrajectoryPictures {
    /// What a rendering produced.
    public struct Outcome: Sendable, Hashable {
        /// Frames decoded and, with an overlay, written.
        public var framesWritten: Int
        /// The encoder of the overlay (`libx264` or `mpeg4`), nil without one.
        public var encoderName: String?
        /// The frame the snapshot was drawn on, nil without one.
        public var snapshotFrame: FrameStamp?
        /// Problems met decoding that did not stop it.
        public var warnings: [String]
        /// Whether a ``RunStopper`` ended the drawing before the video's end: the overlay then
        /// holds the `framesWritten` frames drawn so far, a complete file, and the snapshot is
        /// missing if its frame had not come.
        public var stoppedEarly = false
    }

    /// The frame a snapshot shows: the middle point of the longest trajectory, where the ball
    /// is in mid-flight and every path is already on screen in its final form; the middle of
    /// the video when nothing was found.
    public static func representativeFrame(of history: TrajectoryHistory, frameCount: Int) -> Int {
        guard let longest = history.longestTrack else { return max(0, frameCount / 2) }
        return longest.points[longest.points.count / 2].frame
    }

    /// Decodes `uri` and writes the overlay to `overlayPath` and the snapshot PNG to
    /// `snapshotPath` (either may be nil).
    /// - Parameters:
    ///   - holdSeconds: how long a trajectory stays on screen after its last point.
    ///   - networkTimeout: as for ``VideoReader/init(uri:networkTimeout:)``, for a URL read again.
    ///   - stopper: ends the drawing early from another thread (Ctrl-C): no frame is drawn
    ///     after the one in hand, and the overlay is closed as a complete, shorter video
    ///     (``Outcome/stoppedEarly``). It is looked at between frames, so a network read in
    ///     progress ends first.
    /// - Throws: ``VideoError`` when the video cannot be read or an output cannot be written.
    public static func render(
        uri: String, history: TrajectoryHistory, regionOfInterest: NormalizedRect,
        overlayPath: String?, snapshotPath: String?, holdSeconds: Double = 0.5,
        networkTimeout: Double = VideoReader.defaultNetworkTimeout, stopper: RunStopper? = nil
    ) throws(VideoError) -> Outcome {
        var reader = try PictureReader(uri: uri, networkTimeout: networkTimeout)
        let info = reader.info
        var painter = OverlayPainter(
            style: OverlayStyle(width: info.width, height: info.height, holdSeconds: holdSeconds),
            regionOfInterest: regionOfInterest)
        let snapshotIndex = representativeFrame(of: history, frameCount: info.frameCount)
        var picture = YUVPicture(width: max(1, info.width), height: max(1, info.height))
        var snapshot: FrameStamp?
        var overlay = OverlayOutput(path: overlayPath)
        var stoppedEarly = false
        while let frame = try reader.next(into: &picture, unlessStoppedBy: stopper, stopped: &stoppedEarly) {
            if let snapshotPath, snapshot == nil, frame.stamp.index >= snapshotIndex {
                var still = picture
                painter.drawFinal(history, on: &still)
                try StillImageWriter.writePNG(still, to: snapshotPath)
                snapshot = frame.stamp
            }
            guard overlayPath != nil else {
                if snapshot != nil { break }
                continue
            }
            painter.drawLive(history, at: frame.stamp, on: &picture)
            try overlay.append(picture, timestamp: frame.timestamp, timing: reader.timing)
        }
        if let snapshotPath, snapshot == nil, !stoppedEarly {
            throw VideoError(.readFailed, uri: uri, detail: "no frame decoded for the snapshot \(snapshotPath)")
        }
        let encoderName = overlay.encoderName
        try overlay.finish()
        return Outcome(
            framesWritten: reader.framesRead, encoderName: encoderName, snapshotFrame: snapshot, warnings: reader.warnings,
            stoppedEarly: stoppedEarly)
    }
}

/// The overlay file, opened on the first picture (when its size is known), or nothing.
private struct OverlayOutput: ~Copyable {
    let path: String?
    private var writer: PictureVideoWriter?
    /// The encoder used, once the file is open.
    private(set) var encoderName: String?

    init(path: String?) {
        self.path = path
    }

    mutating func append(_ picture: YUVPicture, timestamp: Int64?, timing: StreamTiming) throws(VideoError) {
        guard let path else { return }
        if writer == nil {
            let opened = try PictureVideoWriter(
                path: path, width: picture.width, height: picture.height, timing: timing, encoding: picture.encoding)
            encoderName = opened.encoderName
            writer = consume opened
        }
        try writer!.append(picture, timestamp: timestamp)
    }

    consuming func finish() throws(VideoError) {
        guard let writer = writer.take() else { return }
        try writer.finish()
    }
}
