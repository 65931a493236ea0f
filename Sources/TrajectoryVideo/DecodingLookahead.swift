/// How far decoding may run ahead of the analysis: how many decoded frames may wait for it.
///
/// The analysis's time per frame swings with what moves in the picture: a frame with many
/// moving regions takes it four times its usual time, and such frames come in stretches as
/// people cross the scene. While the analysis is slow, decoding runs on into the queue; while
/// it is fast, it drains the queue; so neither thread waits long for the other, as long as the
/// queue is deep enough to span a stretch. Frames take memory, though, so the depth is set in
/// bytes, within bounds in frames.
///
/// The default lets 14 frames of 720p wait, and 6 of 1080p or anything larger. At 720p the
/// analysis is the limit: with 6 frames, walkers ×10 took 0.84 s (best of 6, interleaved),
/// with 10 frames 0.81 s, and with 14, 20 or 28 frames 0.77 s. At 1080p decoding is the limit,
/// and more than 6 frames gained nothing measurable (hd60 ×10, best of 5: 1.92 s with 6 frames,
/// 1.89–1.91 s with 13 to 32), while each costs 2 MB of luma: with 13 (and their colour
/// planes, 3 MB a frame then), a ten-minute stream's peak memory rose 31 % over a ten-second
/// one's, as the long run meets the analysis's slowest stretches and fills the queue. Fewer
/// than 6 cost time on busy 1080p: crowd scaled to 1080p and piped took about 4 % longer with
/// 3 (median of 6 interleaved runs, 2.70 s against 2.56 s).
public struct DecodingLookahead: Sendable, Hashable {
    /// The most frames that may wait, whatever their size.
    public var maximumFrames: Int
    /// Beyond ``framesBeyondBudget`` frames, another frame may join only while the waiting
    /// frames' luma planes hold fewer bytes than this. (A frame handed over from the decoder
    /// holds no more: its colour planes go back to the decoder as it is queued.)
    public var byteBudget: Int
    /// Frames that may wait whatever their bytes, so that decoding overlaps the analysis even
    /// when a frame alone is over the budget.
    public var framesBeyondBudget: Int

    public init(maximumFrames: Int, byteBudget: Int, framesBeyondBudget: Int) {
        precondition(framesBeyondBudget >= 2, "decoding overlaps analysis only with at least two frames")
        precondition(maximumFrames >= framesBeyondBudget, "the frame bound must allow the frames beyond the budget")
        self.maximumFrames = maximumFrames
        self.byteBudget = byteBudget
        self.framesBeyondBudget = framesBeyondBudget
    }

    /// 32 frames at most, and beyond the first 6 only while they hold under 12 MB of luma: just
    /// under six 1080p planes, and 14 of 720p.
    public static let `default` = DecodingLookahead(maximumFrames: 32, byteBudget: 12_000_000, framesBeyondBudget: 6)

    /// Whether another frame may join `queuedFrames` waiting frames whose planes hold
    /// `queuedBytes`.
    public func takesAnother(queuedFrames: Int, queuedBytes: Int) -> Bool {
        queuedFrames < maximumFrames && (queuedFrames < framesBeyondBudget || queuedBytes < byteBudget)
    }

    /// How many frames of `bytesPerFrame` bytes each may wait.
    public func frames(ofBytes bytesPerFrame: Int) -> Int {
        var frames = 0
        while takesAnother(queuedFrames: frames, queuedBytes: frames * bytesPerFrame) { frames += 1 }
        return frames
    }
}
