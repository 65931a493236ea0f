/// Whether the decoder runs the codec's in-loop deblocking filter (H.264's and HEVC's
/// deblocking, VP9's loop filter), which smooths the edges between coded blocks.
///
/// The filter is about a quarter of H.264's decoding time (hd60 ×5, 1080p: 0.85 s against
/// 0.63 s on one thread). The detector does not need the smoothing: it compares each frame
/// with earlier ones, and blocking that stays put cancels out. But the codec predicts later
/// frames from filtered ones, so without it small errors build up in moving areas until the
/// next keyframe (after 3 000 frames of one keyframe: 43 dB PSNR against the exact pictures),
/// and the accuracy report loses a little (README, "Speed").
public enum LoopFilter: Sendable {
    /// Every picture exactly as the codec defines it (FFmpeg's default).
    case applied
    /// Skipped on every frame (FFmpeg's `skip_loop_filter=all`): faster to decode, pictures
    /// a grey level or so off near block edges.
    case skipped
}
