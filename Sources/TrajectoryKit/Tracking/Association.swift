/// Where a track expects its ball at the time of the frame being analysed, in the scene's
/// coordinates (as its samples are), and how far from there a blob may be and still be that ball.
struct TrackPrediction: Sendable, Hashable {
    /// Confirmed tracks (including lost ones) choose blobs before tentative ones, as in
    /// ByteTrack, so a new track cannot take a known ball's detection.
    var isConfirmed: Bool
    /// Predicted centre, scene pixels.
    var center: PixelPoint
    /// Blobs farther than this from `center`, pixels, are not considered.
    var gateRadius: Double
    /// The track's mean ball radius, pixels.
    var radius: Double
    /// The track's speed, pixels per second, when it has two points or more.
    var speed: Double?
    /// Seconds since the track's latest point: the longest a blob's motion blur can span.
    var interval: Double
    /// For a tentative track that has followed faint clutter, the contrast of the clearest
    /// point of its latest window; nil for any other track (see
    /// `TrajectoryTracker.BlobCriteria.newObjectContrastRatio`).
    var faintTrackContrast: Double? = nil
    /// Whether the track is a confirmed flight whose ball is predicted to move too little
    /// since the previous analysed frame to show in the motion image (see
    /// `TrajectoryTracker.FlightCriteria.stillBallTravelInRadii`).
    var ballNearlyStill = false
}

/// Tells strong blobs from weak ones (see `TrajectoryTracker.BlobCriteria`).
struct BlobStrength: Sendable {
    let criteria: TrajectoryTracker.BlobCriteria

    /// Whether `blob`, one of `blobCount` in its frame, may start a track: solid, no longer
    /// than a blurred ball, and clear, or in a quiet frame at least not fainter than
    /// `minimumQuietStartContrast`.
    func canStartTrack(_ blob: Blob, among blobCount: Int) -> Bool {
        let isQuiet = blobCount <= criteria.quietFrameBlobCount
        let leastContrast = isQuiet ? criteria.minimumQuietStartContrast : criteria.minimumContrast
        return blob.contrast >= leastContrast && blob.solidity >= criteria.minimumSolidity
            && blob.elongation <= criteria.maximumElongation
    }

    /// Whether `blob` is a strong match for the track predicted by `prediction`: clear, solid,
    /// of a radius like the track's and no more elongated than its speed explains.
    func isStrong(_ blob: Blob, for prediction: TrackPrediction) -> Bool {
        guard isClearAndSolid(blob) else { return false }
        let ratio = blob.radius / max(prediction.radius, .leastNormalMagnitude)
        guard ratio <= criteria.maximumRadiusMismatch, ratio >= 1 / criteria.maximumRadiusMismatch else { return false }
        guard let speed = prediction.speed else { return blob.elongation <= criteria.maximumElongation }
        let blur = speed * prediction.interval / (2 * max(blob.radius, 0.5))
        return blob.elongation <= 1 + blur + criteria.elongationSlack
    }

    /// Whether `blob` may be the ball of the track predicted by `prediction` at all. A blob
    /// more than `maximumRadiusMismatch` times a confirmed ball's radius is something larger
    /// that the ball, if it is there, has merged with (a walker it passes in front of): its
    /// centre may lie anywhere in it, up to its own radius from the ball's, so it cannot place
    /// the ball, and the frame is a miss for the flight. (A smaller blob can be part of the
    /// ball, whose centre lies on it; a tentative track has no ball size known yet.)
    func mayBeBall(_ blob: Blob, for prediction: TrackPrediction) -> Bool {
        !prediction.isConfirmed || blob.radius <= criteria.maximumRadiusMismatch * prediction.radius
    }

    /// Whether `blob` is a new object rather than more of the faint clutter that the track
    /// predicted by `prediction` has followed: much clearer than anything in its latest window
    /// (`BlobCriteria.newObjectContrastRatio`).
    func isNewObject(_ blob: Blob, for prediction: TrackPrediction) -> Bool {
        guard let clearest = prediction.faintTrackContrast else { return false }
        return blob.contrast >= criteria.newObjectContrastRatio * clearest
    }

    func isClearAndSolid(_ blob: Blob) -> Bool {
        blob.contrast >= criteria.minimumContrast && blob.solidity >= criteria.minimumSolidity
    }
}

/// Pairs tracks with the blobs of one frame: each track takes at most one blob inside its gate,
/// each blob goes to at most one track.
///
/// Greedy, in four stages, smallest cost first within each: confirmed tracks with strong blobs,
/// confirmed tracks with weak blobs, then tentative tracks likewise (ByteTrack's order). The
/// cost is the distance from the prediction divided by the gate radius. Greedy rather than
/// Hungarian because the kinematic gates are a few pixels wide once a track has three points,
/// so two tracks rarely want one blob, and when they do the one that predicted it more closely
/// is the better evidence; greedy also keeps the stages' priority without big-M costs and runs
/// in O(P log P) for P gated pairs instead of O(n³).
///
/// The result depends only on the arguments; the storage is kept between frames so that
/// associating does not allocate once it has grown to the scene's size.
struct Associator {
    struct Match: Sendable, Hashable {
        var track: Int
        var blob: Int
        /// Whether the blob is strong for the track (`BlobStrength.isStrong`).
        var isStrong: Bool
    }

    /// Pairs found by the latest `associate` call, in the order they were chosen.
    private(set) var matches: [Match] = []
    /// Indices of the tracks the latest call left without a blob, ascending.
    private(set) var unmatchedTracks: [Int] = []
    /// Indices of the blobs the latest call gave to no track, ascending.
    private(set) var unmatchedBlobs: [Int] = []

    private struct Candidate {
        var track: Int
        var blob: Int
        var stage: Int
        var cost: Double
    }

    private var candidates: [Candidate] = []
    private var trackTaken: [Bool] = []
    private var blobTaken: [Bool] = []

    /// - Parameter blobsByColumn: `blobs` by column (the tracker keeps the frame's index).
    /// - Complexity: O(T·(log B + b) + P log P) for T tracks, B blobs, b blobs in the columns
    ///   of a track's gate and P gated pairs.
    mutating func associate(
        predictions: [TrackPrediction], blobs: [Blob], byColumn blobsByColumn: BlobColumnIndex, strength: BlobStrength
    ) {
        candidates.removeAll(keepingCapacity: true)
        for (trackIndex, prediction) in predictions.enumerated() {
            for blobIndex in blobsByColumn.blobs(nearColumn: prediction.center.x, within: prediction.gateRadius) {
                let blob = blobs[blobIndex]
                let distance = blob.center.distance(to: prediction.center)
                guard distance <= prediction.gateRadius, strength.mayBeBall(blob, for: prediction) else { continue }
                let stage = (prediction.isConfirmed ? 0 : 2) + (strength.isStrong(blob, for: prediction) ? 0 : 1)
                candidates.append(Candidate(
                    track: trackIndex, blob: blobIndex, stage: stage,
                    cost: distance / max(prediction.gateRadius, .leastNormalMagnitude)))
            }
        }
        candidates.heapSort { ($0.stage, $0.cost, $0.track, $0.blob) < ($1.stage, $1.cost, $1.track, $1.blob) }

        Self.reset(&trackTaken, count: predictions.count)
        Self.reset(&blobTaken, count: blobs.count)
        matches.removeAll(keepingCapacity: true)
        for candidate in candidates where !trackTaken[candidate.track] && !blobTaken[candidate.blob] {
            trackTaken[candidate.track] = true
            blobTaken[candidate.blob] = true
            matches.append(Match(track: candidate.track, blob: candidate.blob, isStrong: candidate.stage % 2 == 0))
        }
        Self.collectUntaken(trackTaken, into: &unmatchedTracks)
        Self.collectUntaken(blobTaken, into: &unmatchedBlobs)
    }

    // Static, not instance methods: calling a method on `self` while one of its arrays is
    // passed inout makes Swift copy `self`, so the array is shared and reallocated.
    private static func reset(_ flags: inout [Bool], count: Int) {
        flags.removeAll(keepingCapacity: true)
        flags.append(contentsOf: repeatElement(false, count: count))
    }

    private static func collectUntaken(_ taken: [Bool], into indices: inout [Int]) {
        indices.removeAll(keepingCapacity: true)
        for (index, isTaken) in taken.enumerated() where !isTaken { indices.append(index) }
    }
}
