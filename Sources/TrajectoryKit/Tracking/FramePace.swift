/// How many analysed frames pass in the time one frame takes at 30 frames a second, the rate
/// the tracker's rules that count frames were tuned at, rounded: 1 below 45 frames a second,
/// 2 from 45 to 74 (50 and 60), 4 at 120.
///
/// Why: those rules stand for lengths of time. A tentative track keeps two windows of points
/// so that what it followed before them still counts against confirming it: at 30 frames a
/// second that is two thirds of a second, in which a light circling once a second shows it
/// does not fly; at 60 the same twenty points span a third of a turn, which a parabola fits
/// within a pixel. A track that begins with the video, which holds no such past, is confirmed
/// on a window's time of points, not a window (`Track.leastPointsToConfirm`). And a track may
/// miss four frames in a row: at 60 frames a second a ball slowing at its apex goes unseen for
/// longer than that. Vision's `trajectoryLength` stays a count of points, as Vision defines
/// it: the points an observation reports, and the fewest a trajectory is confirmed on.
struct FramePace: Equatable {
    /// The frame rate the rules were tuned at.
    static let tunedFrameRate = 30.0

    /// Analysed frames per frame at ``tunedFrameRate``, at least 1.
    private(set) var framesPerTunedFrame = 1

    /// The pace of frames whose times, oldest to newest, span `span` seconds over `intervals`
    /// intervals (the tracker's recent frames: one frame arriving late or dropped sways their
    /// mean little). Rounded to the nearest whole number, so that a rate that wanders a little
    /// around 60 frames a second keeps one pace.
    init(span: Double, intervals: Int) {
        guard intervals > 0, span > 0, span.isFinite else { return }
        let ratio = (Double(intervals) / span / Self.tunedFrameRate).rounded()
        framesPerTunedFrame = Int(max(1, min(ratio, Double(Self.largestFramesPerTunedFrame))))
    }

    /// The pace at 30 frames a second or fewer: every rule as tuned.
    init() {}

    /// Bounds the storage a track keeps for two windows of points: 32 analysed frames per
    /// frame at 30 is 960 frames a second, the fastest phones film at. Slow motion is
    /// analysed at about 30 frames a second anyway (`SlowMotion`) unless asked otherwise.
    static let largestFramesPerTunedFrame = 32

    /// `frames` counted at the tuned rate, counted at this pace.
    func frames(_ frames: Int) -> Int { frames * framesPerTunedFrame }
}
