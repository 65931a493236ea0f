import Foundation

/// How the detection behind one point of a track looked, kept for confirming the track.
struct DetectionQuality: Sendable, Hashable {
    /// Whether association judged the blob strong for the track (clear, solid, no more
    /// elongated than motion blur explains, sized like the track's ball): see `BlobStrength`.
    var isStrong = true
    /// The blob's solidity.
    var solidity = 1.0
    /// Whether the blob reaches the edge of the frame, so part of the object may lie outside
    /// it and the centroid and radius are not the whole object's.
    var touchesFrameEdge = false

    init() {}

    init(_ blob: Blob, isStrong: Bool, frameWidth: Int, frameHeight: Int) {
        self.isStrong = isStrong
        solidity = blob.solidity
        touchesFrameEdge = Self.touchesEdge(blob, width: Double(frameWidth), height: Double(frameHeight))
    }

    /// Whether the blob's ellipse (half-width `radius`, half-length `radius × elongation` along
    /// `orientation`) reaches within a pixel of the frame's edge.
    private static func touchesEdge(_ blob: Blob, width: Double, height: Double) -> Bool {
        let halfWidth = blob.radius
        let halfLength = blob.radius * max(1, blob.elongation)
        let (cosine, sine) = (cos(blob.orientation), sin(blob.orientation))
        let halfExtentX = ((halfLength * cosine) * (halfLength * cosine) + (halfWidth * sine) * (halfWidth * sine)).squareRoot()
        let halfExtentY = ((halfLength * sine) * (halfLength * sine) + (halfWidth * cosine) * (halfWidth * cosine)).squareRoot()
        let margin = 1.0
        return blob.center.x - halfExtentX <= margin || blob.center.x + halfExtentX >= width - margin
            || blob.center.y - halfExtentY <= margin || blob.center.y + halfExtentY >= height - margin
    }
}

/// Cues from how a track's detections look, beyond where they are:
///
/// - A track is confirmed only if most of its points are whole blobs, clear of the frame's
///   edge: a blob cut by the edge (lettering scrolling into view, a player walking in) moves
///   with the edge's cut rather than with the object, and can look like a slow steady motion.
///   A ball entering the frame is cut only for its first point or two.
/// - A track without gravity in its motion (constant velocity: a rolling ball, or anything
///   else moving steadily — a walker's head, a letter, a vehicle's edge) has no physical
///   evidence of being a ball, so its detections must look like one: most points strong and
///   solid. A ball is round and is seen whole; heads, hands and lettering are ragged or
///   elongated beyond what blur explains.
struct DetectionEvidence: Sendable {
    let criteria: TrajectoryTracker.EvidenceCriteria

    /// Whether `samples`, found to be one free flight (`isRolling` when at constant velocity),
    /// were detected well enough to confirm.
    func supportsConfirmation(_ samples: some Collection<TrackSample>, isRolling: Bool) -> Bool {
        let count = Double(samples.count)
        let whole = samples.count { !$0.detection.touchesFrameEdge }
        guard Double(whole) >= criteria.minimumWholeFraction * count else { return false }
        guard isRolling else { return true }
        let ballLike = samples.count {
            $0.detection.isStrong && $0.detection.solidity >= criteria.rollingMinimumSolidity
        }
        return Double(ballLike) >= criteria.rollingMinimumBallLikeFraction * count
    }
}
