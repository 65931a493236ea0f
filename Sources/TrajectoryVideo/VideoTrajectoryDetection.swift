import TrajectoryKit

/// Runs a ``DetectTrajectoriesRequest`` over every frame of a video, decoding and analysing
/// one frame at a time, so memory stays flat however long the video is.
///
/// ```swift
/// let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
/// let summary = try VideoTrajectoryDetection.run(uri: "swing.mp4", request: request) { frame in
///     for observation in frame.observations { print(frame.stamp.time, observation.uuid) }
/// }
/// print(summary.framesDecoded, summary.warnings)
/// ```
public enum VideoTrajectoryDetection {
    /// One frame the request analysed.
    public struct AnalysedFrame: Sendable {
        public var stamp: FrameStamp
        /// The frame's size as displayed, in pixels.
        public var width: Int
        public var height: Int
        /// The trajectories that gained a point in this frame (often none).
        public var observations: [TrajectoryObservation]
    }

    /// What a run went through.
    public struct Summary: Sendable, Hashable {
        /// The video as its container describes it.
        public var info: VideoInfo
        /// Frames decoded, in presentation order.
        public var framesDecoded: Int
        /// Frames the request analysed (fewer than decoded when it has a frame spacing).
        public var framesAnalysed: Int
        /// Presentation time of the last decoded frame, in seconds.
        public var lastFrameTime: Double?
        /// Problems that did not stop the run (a truncated file, damaged packets), one line each.
        public var warnings: [String]

        /// The video's duration: the container's when it gives one, else the decoded frames' span.
        public var duration: Double {
            if info.duration > 0 { return info.duration }
            guard let lastFrameTime else { return 0 }
            return lastFrameTime + (info.frameRate > 0 ? 1 / info.frameRate : 0)
        }
    }

    /// Decodes `uri` and performs `request` on every frame.
    ///
    /// - Parameter onAnalysedFrame: called after every frame the request analysed, in
    ///   presentation order.
    /// - Throws: ``VideoError`` when the video cannot be opened or read, `ConfigurationError`
    ///   when the request's settings are out of range, or what `onAnalysedFrame` throws.
    public static func run(
        uri: String, request: DetectTrajectoriesRequest,
        onAnalysedFrame: (AnalysedFrame) throws -> Void
    ) throws -> Summary {
        var reader = try VideoReader(uri: uri)
        let handler = SequenceRequestHandler()
        var framesAnalysed = 0
        var lastFrameTime: Double?
        while let (stamp, layout) = try reader.nextFrame({ plane, layout, stamp in
            try handler.perform([request], luma: plane, layout: layout, frame: stamp)
            return (stamp, layout)
        }) {
            lastFrameTime = stamp.time
            if request.resultsFrame == stamp {
                framesAnalysed += 1
                try onAnalysedFrame(AnalysedFrame(
                    stamp: stamp, width: layout.width, height: layout.height, observations: request.results ?? []))
            }
        }
        return Summary(
            info: reader.info, framesDecoded: reader.framesRead, framesAnalysed: framesAnalysed,
            lastFrameTime: lastFrameTime, warnings: reader.warnings)
    }
}
