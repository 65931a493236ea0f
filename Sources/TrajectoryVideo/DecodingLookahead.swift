/// How far decoding may run ahead of the analysis: how many decoded frames may wait for it.
///
/// The analysis's time per frame swings with what moves in the picture: a frame with many
/// moving regions takes it four times its usual time, and such frames come in stretches as
/// people cross the scene. While the analysis is slow, decoding runs on into the queue; while
/// it is fast, it drains the queue; so neither thread waits long for the other, as long as the
/// queue is deep enough to span a stretch. Frames take memory, though, so the depth is set in
/// bytes, within bounds in frames.
///
/// The default lets about 28 frames of 720p wait, 13 of 1080p and 6 of anything larger. With
/// 6 frames of every size, as before, 720p (where the analysis is the limit) ran 5–8 % slower:
/// walkers ×10, best of 5 and of 7 interleaved, 0.85 s against 0.80 s; with 16 to 128 frames it
/// ran alike. 1080p, where decoding is the limit, gained little from more than 6.
public struct DecodingLookahead: Sendable, Hashable {
    /// The most frames that may wait, whatever their size.
    public var maximumFrames: Int
    /// Beyond ``framesBeyondBudget`` frames, another frame may join only while the waiting
    /// frames' luma planes hold fewer bytes than this. (A frame handed over from the decoder
    /// holds its colour planes too: half as much again for 4:2:0 video.)
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

    /// 32 frames at most, 24 MiB of luma beyond the first 6.
    public static let `default` = DecodingLookahead(maximumFrames: 32, byteBudget: 24 << 20, framesBeyondBudget: 6)

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
