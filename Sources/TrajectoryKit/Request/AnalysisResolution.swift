/// Chooses how many times each frame is shrunk before the detector analyses it
/// (``BlobDetector/Configuration/analysisReduction``): by the frame's size, and, when a
/// ``DetectTrajectoriesRequest/targetFrameTime`` is set, by how long recent frames took.
///
/// By size, a frame is shrunk by the largest of 2 or 4 that keeps its long side at least the
/// request's ``DetectTrajectoriesRequest/minimumAnalysisLongSide`` (Vision analyses at about
/// 800 px): 1080p is analysed at 960 × 540, 4K at 960 × 540, 720p as it is.
///
/// With a target, it measures frames in windows of ``windowFrames`` at one reduction; a window
/// whose mean is over the target shrinks frames twice more (down to ``smallestLongSide``), and
/// one whose mean would stay under the target with four times the work (twice the resolution,
/// plus a margin) goes back towards the size rule, never past it. Every change restarts the
/// detector's history, so changes are at least a window apart.
struct AnalysisResolution {
    /// Frames measured before the reduction may change.
    static let windowFrames = 10
    /// The shortest long side a target may shrink frames to, in pixels.
    static let smallestLongSide = 240
    /// Going back to twice the resolution needs the mean time times four, times this, under the target.
    static let finerMargin = 1.25

    /// The reduction for the next frame.
    private(set) var reduction = 1
    private var frameSize: (width: Int, height: Int)?
    private var sizeReduction = 1
    private var windowTime = 0.0
    private var windowCount = 0

    /// The reduction to analyse a `width` × `height` frame at.
    mutating func reduction(width: Int, height: Int, minimumLongSide: Int, targetFrameTime: Double?) -> Int {
        let longSide = max(width, height)
        let bySize = Self.largestReduction(longSide: longSide, keeping: minimumLongSide)
        if frameSize?.width != width || frameSize?.height != height || bySize != sizeReduction
            || (targetFrameTime == nil && reduction != bySize)
        {
            frameSize = (width, height)
            sizeReduction = bySize
            restart(at: bySize)
        }
        return reduction
    }

    /// Records how long a frame analysed at the current reduction took, and changes the
    /// reduction when a whole window says the target is missed, or met with room to spare.
    mutating func record(frameTime seconds: Double, targetFrameTime: Double) {
        guard let frameSize else { return }
        windowTime += seconds
        windowCount += 1
        guard windowCount >= Self.windowFrames else { return }
        let mean = windowTime / Double(windowCount)
        let coarsest = max(
            sizeReduction,
            Self.largestReduction(longSide: max(frameSize.width, frameSize.height), keeping: Self.smallestLongSide))
        if mean > targetFrameTime, reduction < coarsest {
            restart(at: reduction * 2)
        } else if reduction > sizeReduction, mean * 4 * Self.finerMargin < targetFrameTime {
            restart(at: reduction / 2)
        } else {
            restart(at: reduction)
        }
    }

    private mutating func restart(at reduction: Int) {
        self.reduction = reduction
        windowTime = 0
        windowCount = 0
    }

    /// The largest allowed reduction that leaves at least `minimum` pixels on the long side (1 if none does).
    static func largestReduction(longSide: Int, keeping minimum: Int) -> Int {
        BlobDetector.Configuration.allowedAnalysisReductions.last { longSide / $0 >= minimum } ?? 1
    }
}
