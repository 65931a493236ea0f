/// How slow-motion video is analysed: like ordinary video, at about 30 frames a second.
///
/// The detector compares each analysed frame with the three analysed before it, and the
/// tracker's rules count analysed frames (a trajectory of 10 points, a few missed frames
/// allowed). Both were tuned on video at 30 frames a second. At 240 frames a second a ball
/// moves an eighth as far between frames, so only slivers of it show as change, and arm swings
/// and circling objects pass for flights over ten points, which then span 1/24 s. Analysing
/// every eighth frame gives the detector and tracker the video they were tuned on.
///
/// Measured on every scene rendered at 240 frames a second, seeds 1 and 2
/// (`Scripts/accuracy-report --frame-rate 240`, README "Slow motion"): every frame gave recall
/// 0.609 and precision 0.622, with 71 false trajectories; one frame in 8 gave 0.890 and 1.000,
/// with none.
///
/// Like Vision, a request analyses every frame unless told otherwise: this is a choice the
/// caller makes once the video's frame rate is known (`VideoTrajectoryDetection.run(…,
/// suitsSlowMotion: true)` makes it, and `trajectories detect` unless given `--spacing`).
public enum SlowMotion {
    /// Videos of at least this many frames a second count as slow motion. Ordinary rates up to
    /// 60 stay analysed frame by frame, as Vision does.
    public static let lowestFrameRate = 90.0
    /// Stated rates above this are not believed: FFmpeg states its time base (90 000 for
    /// MPEG-TS) when it cannot tell a damaged stream's rate, and phones film at most 960.
    public static let highestFrameRate = 1000.0
    /// About how many frames a second of slow-motion video are analysed.
    public static let analysedFrameRate = 30.0

    /// How many frames apart analysed frames are in a video of `frameRate` frames a second:
    /// the whole number nearest `frameRate / 30`, or 1 (every frame) below ``lowestFrameRate``,
    /// above ``highestFrameRate``, or when the rate is unknown (0, infinite or NaN).
    public static func frameStep(forFrameRate frameRate: Double) -> Int {
        guard frameRate.isFinite, (lowestFrameRate...highestFrameRate).contains(frameRate) else { return 1 }
        return Int((frameRate / analysedFrameRate).rounded())
    }

    /// The ``DetectTrajectoriesRequest/frameAnalysisSpacing`` that analyses every
    /// ``frameStep(forFrameRate:)``th frame of a video of `frameRate` frames a second, or nil
    /// when that is every frame. It is half a frame short of the step, so a timestamp that
    /// is a little early or late (a phone's variable frame rate) still falls on the same frame.
    public static func frameAnalysisSpacing(forFrameRate frameRate: Double) -> Double? {
        let step = frameStep(forFrameRate: frameRate)
        guard step > 1 else { return nil }
        return (Double(step) - 0.5) / frameRate
    }
}
