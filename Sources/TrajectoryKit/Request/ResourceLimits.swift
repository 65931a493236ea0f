/// Bounds on the work and memory one frame may cost, so that a scene full of moving specks
/// (snow, confetti, a flock of birds, sensor noise) stays bounded in time and memory instead of
/// slowing a batch to a crawl. The defaults are far above what real scenes need (a busy sports
/// scene has a few dozen moving blobs); when a limit binds, the request keeps going with the
/// most promising part and says so in ``DetectTrajectoriesRequest/limitWarnings``.
public struct ResourceLimits: Sendable, Hashable {
    /// The values each limit may take.
    public static let allowedRange = 1...100_000

    /// Moving blobs kept per analysed frame; beyond it the largest are kept.
    public var maximumBlobsPerFrame = 500
    /// Tracks alive at once (tentative and confirmed); beyond it no new track starts until
    /// others end, so the tracks already followed, confirmed flights first, keep going.
    public var maximumLiveTracks = 500

    public init(maximumBlobsPerFrame: Int = 500, maximumLiveTracks: Int = 500) {
        self.maximumBlobsPerFrame = maximumBlobsPerFrame
        self.maximumLiveTracks = maximumLiveTracks
    }

    func validate() throws(ConfigurationError) {
        try ConfigurationError.check("maximumBlobsPerFrame", maximumBlobsPerFrame, in: Self.allowedRange)
        try ConfigurationError.check("maximumLiveTracks", maximumLiveTracks, in: Self.allowedRange)
    }
}

/// How often the ``ResourceLimits`` bound a stream's analysis so far.
public struct LimitCounts: Sendable, Hashable {
    /// Analysed frames that held more blobs than ``ResourceLimits/maximumBlobsPerFrame``.
    public var framesOverBlobLimit = 0
    /// Most blobs found in one frame, before the limit.
    public var mostBlobsInAFrame = 0
    /// Blobs that could have started a track but did not, because
    /// ``ResourceLimits/maximumLiveTracks`` tracks were alive.
    public var tracksNotStarted = 0

    public init() {}
}

/// Keeps the `limit` largest of `blobs` in their original order (the tracker's tie-breaks follow
/// detection order). Allocates, but only in a frame where the limit binds.
func keepingLargest(_ limit: Int, of blobs: [Blob]) -> [Blob] {
    guard blobs.count > limit else { return blobs }
    let largest = blobs.indices.sorted { blobs[$0].radius > blobs[$1].radius }.prefix(limit).sorted()
    return largest.map { blobs[$0] }
}
