import TrajectoryKit

/// How far apart the frames a run analyses will be, known before its first frame is decoded,
/// so that decoding can be planned for it: when the analysis takes only one frame in several,
/// decoding is nearly all the work, and two decoders pay even where the frames are analysed
/// whole (``DecodingLanes/pay(width:height:minimumLongSide:analysedFrameStep:)``).
struct PlannedAnalysisSpacing: Sendable {
    /// The request's ``DetectTrajectoriesRequest/frameAnalysisSpacing`` when the run began.
    var spacing: Double
    /// Whether a request of no spacing is suited to a slow-motion video's rate once it is
    /// known (``SlowMotion``).
    var suitsSlowMotion: Bool

    /// The spacing the request will have for a video of `frameRate` frames a second.
    func spacing(atFrameRate frameRate: Double) -> Double {
        guard suitsSlowMotion && spacing == 0 else { return spacing }
        return SlowMotion.frameAnalysisSpacing(forFrameRate: frameRate) ?? 0
    }

    /// About how many frames apart the analysed frames will be at `frameRate`: 1 when every
    /// frame is analysed, or when the rate is unknown.
    ///
    /// The request analyses the first frame at least the spacing after the last one analysed,
    /// less a quarter of a frame for timestamps a little off (``FrameSampler``).
    func frameStep(atFrameRate frameRate: Double) -> Int {
        let frames = spacing(atFrameRate: frameRate) * frameRate - 0.25
        guard frames > 1 else { return 1 }  // NaN too, for a rate unknown
        return Int(min(frames.rounded(.up), Double(Self.largestStep)))  // an infinite step too
    }

    /// Steps beyond this are counted as this: a video analysed so seldom is all decoding.
    static let largestStep = 1_000_000
}
