import Foundation

/// How the detection behind one point of a track looked, kept for confirming the track.
struct DetectionQuality: Sendable, Hashable {
    /// Whether association judged the blob strong for the track (clear, solid, no more
    /// elongated than motion blur explains, sized like the track's ball): see `BlobStrength`.
    var isStrong = true
    /// The blob's contrast (`Blob.contrast`). A `Float` beside the `Bool` above, so that it
    /// fills their padding: one more `Double` here made every `TrackSample` a word longer,
    /// and the tracker a third slower (`Tracker` benchmark p50, 50 blobs a frame: 97–99 µs
    /// without it, 131–136 µs with it).
    var contrast: Float = 0
    /// The blob's solidity.
    var solidity = 1.0
    /// Whether the blob reaches the edge of the frame, so part of the object may lie outside
    /// it and the centroid and radius are not the whole object's.
    var touchesFrameEdge = false
    /// Whether the blob's centre lies inside the ellipse of a wider blob of the same frame:
    /// it is a piece of something larger that moves (a dot of a scrolling word, a hand on an
    /// arm), not a whole object.
    var insideLargerBlob = false
    /// Whether the blob is two parts of a confirmed ball joined (`SplitBall`): its centre is
    /// near the ball's, but not as near as a whole ball's.
    var joinedFromParts = false
    /// How much moved beside the blob, across the track's travel to it, when known: see
    /// ``SideMotion``.
    var beside: SideMotion?

    init() {}

    /// - Parameters:
    ///   - others: the blobs of the same frame (the blob itself may be among them).
    ///   - othersByColumn: `others` by column, to look only at those that can reach the blob.
    init(
        _ blob: Blob, among others: [Blob], byColumn othersByColumn: BlobColumnIndex, isStrong: Bool, frameWidth: Int,
        frameHeight: Int
    ) {
        self.isStrong = isStrong
        contrast = Float(blob.contrast)
        solidity = blob.solidity
        touchesFrameEdge = Self.touchesEdge(blob, width: Double(frameWidth), height: Double(frameHeight))
        // An ellipse holding the centre has its own centre within its half-length of it.
        let reaching = othersByColumn.blobs(nearColumn: blob.center.x, within: othersByColumn.longestReach)
        insideLargerBlob = reaching.contains {
            others[$0].radius > blob.radius && Self.ellipse(of: others[$0], contains: blob.center)
        }
    }

    /// Whether `point` lies inside `blob`'s ellipse (half-width `radius`, half-length
    /// `radius × elongation` along `orientation`).
    private static func ellipse(of blob: Blob, contains point: PixelPoint) -> Bool {
        let (dx, dy) = (point.x - blob.center.x, point.y - blob.center.y)
        let (cosine, sine) = (cos(blob.orientation), sin(blob.orientation))
        let along = (dx * cosine + dy * sine) / blob.halfLength
        let across = (dy * cosine - dx * sine) / blob.radius
        return along * along + across * across <= 1
    }

    /// Whether the blob's ellipse (half-width `radius`, half-length `radius × elongation` along
    /// `orientation`) reaches within a pixel of the frame's edge.
    private static func touchesEdge(_ blob: Blob, width: Double, height: Double) -> Bool {
        let halfWidth = blob.radius
        let halfLength = blob.halfLength
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
/// - A track is confirmed only if most of its points are solid blobs: a ball carried in a
///   hand along an arc merges with the hand into one ragged blob at point after point, while
///   a ball in flight is ragged only where it crosses clutter or is half hidden.
/// - A track without gravity in its motion (constant velocity: a rolling ball, or anything
///   else moving steadily — a walker's head, a letter, a vehicle's edge) has no physical
///   evidence of being a ball, so its detections must look like one: most points strong,
///   solid and not inside a wider blob. A ball is round and is seen whole; heads, hands and
///   lettering are ragged or elongated beyond what blur explains, and a piece of a larger
///   moving thing (a dot of a scrolling banner) lies within that thing's blob.
/// - A track is confirmed only if nothing moves with its ball on one side of its path, at
///   most of its points: a swung ball's arm reaches across its path to the shoulder, on the
///   same side all along (``SideMotion``). A ball thrown or caught has the hand beside it at
///   the ends of its flight only.
struct DetectionEvidence: Sendable {
    let criteria: TrajectoryTracker.EvidenceCriteria

    /// Whether `samples`, found to be one free flight (`isRolling` when at constant velocity),
    /// were detected well enough to confirm.
    func supportsConfirmation(_ samples: some Collection<TrackSample>, isRolling: Bool) -> Bool {
        let count = Double(samples.count)
        let whole = samples.count { !$0.detection.touchesFrameEdge }
        guard Double(whole) >= criteria.minimumWholeFraction * count else { return false }
        let ragged = samples.count { $0.detection.solidity < criteria.raggedSolidity }
        guard Double(ragged) <= criteria.maximumRaggedFraction * count else { return false }
        guard !isCarried(samples) else { return false }
        guard isRolling else { return true }
        let ballLike = samples.count {
            $0.detection.isStrong && $0.detection.solidity >= criteria.rollingMinimumSolidity
                && !$0.detection.insideLargerBlob
        }
        return Double(ballLike) >= criteria.rollingMinimumBallLikeFraction * count
    }

    /// Whether, at more than `maximumCarriedFraction` of the points whose side motion is known
    /// (at least `leastCarrierSamples` of them), one and the same side of the path moved at least
    /// `carrierSideMotion` as much as the ball.
    ///
    /// "The same side" is judged against one line across the whole track: the mean of the
    /// points' across-travel directions taken as axes, without their sense, so that a ball that
    /// goes up and comes back down (its travel reversed) keeps its left and right.
    func isCarried(_ samples: some Collection<TrackSample>) -> Bool {
        var axisCos = 0.0, axisSin = 0.0, known = 0
        for sample in samples {
            guard let beside = sample.detection.beside else { continue }
            let (x, y) = (beside.across.x, beside.across.y)
            axisCos += x * x - y * y  // cos 2θ
            axisSin += 2 * x * y  // sin 2θ
            known += 1
        }
        guard known >= criteria.leastCarrierSamples else { return false }
        let halfAngle = atan2(axisSin, axisCos) / 2
        let reference = PixelVector(x: cos(halfAngle), y: sin(halfAngle))
        var towardsCount = 0, awayCount = 0
        for sample in samples {
            guard let beside = sample.detection.beside else { continue }
            let sides = beside.sides(towards: reference)
            if sides.towards >= criteria.carrierSideMotion { towardsCount += 1 }
            if sides.away >= criteria.carrierSideMotion { awayCount += 1 }
        }
        let needed = criteria.maximumCarriedFraction * Double(known)
        return Double(towardsCount) > needed || Double(awayCount) > needed
    }
}
