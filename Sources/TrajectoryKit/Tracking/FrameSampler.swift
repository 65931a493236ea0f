/// Chooses the frames to analyse, as Vision's `frameAnalysisSpacing` does: after an analysed
/// frame, the frames whose presentation timestamps fall within the spacing are skipped, and
/// the first frame at or past it is analysed. A spacing of 0 analyses every frame.
///
/// Decisions use presentation timestamps, never a frame count or the wall clock, so dropped
/// frames and variable frame rates are handled. Containers store timestamps rounded to their
/// time base (1 ms for Matroska, 1/600 s in old QuickTime files), so a frame that is due up to
/// ``timestampTolerance`` early, or a quarter of the shortest frame interval seen if that is
/// smaller, still counts as due: a spacing of exactly two frame periods analyses exactly every
/// other frame whether the rounding falls short or not.
public struct FrameSampler: Sendable, Hashable {
    /// How much earlier than due a timestamp may be, through rounding, and still be due: 1 ms.
    public static let timestampTolerance = 0.001

    /// Seconds of presentation time to skip after each analysed frame. The request changes it
    /// between frames when its own spacing changes (after checking the new value); the next
    /// frame is then due that long after the last analysed one.
    public internal(set) var spacing: Double
    private var lastAnalyzedTime: Double?
    private var lastTime: Double?
    private var shortestInterval = Double.infinity

    /// - Throws: `ConfigurationError` when `spacing` is negative, infinite or NaN.
    public init(spacing: Double) throws(ConfigurationError) {
        try ConfigurationError.check("frameAnalysisSpacing", spacing, in: 0...Double.greatestFiniteMagnitude)
        self.spacing = spacing
    }

    /// Whether the frame presented at `time` (seconds) is to be analysed. Call it once per
    /// decoded frame, in presentation order. A timestamp earlier than the previous one (a seek,
    /// a new stream) starts afresh and is analysed.
    public mutating func shouldAnalyze(frameAt time: Double) -> Bool {
        if let lastTime, time > lastTime { shortestInterval = min(shortestInterval, time - lastTime) }
        defer { lastTime = time }
        guard let lastAnalyzedTime, time >= lastAnalyzedTime else {
            lastAnalyzedTime = time
            return true
        }
        let tolerance = min(Self.timestampTolerance, shortestInterval / 4)
        guard time - lastAnalyzedTime >= spacing - tolerance else { return false }
        self.lastAnalyzedTime = time
        return true
    }

    /// Forgets every frame seen, so the next one is analysed.
    public mutating func reset() {
        lastAnalyzedTime = nil
        lastTime = nil
        shortestInterval = .infinity
    }
}
