/// Whether the things around a track's ball moved the way the ball did, at one of its points.
enum NeighbourMotion: Sendable, Hashable {
    /// Not known: the track has no earlier point far enough back, or the ball barely moved, so
    /// any neighbour standing still would look as if it moved with it.
    case unknown
    /// No neighbour moved with the ball.
    case independent
    /// A neighbour moved with the ball: a blob near it now has a counterpart in an earlier
    /// frame exactly where the ball's displacement since then would have brought it from.
    case shared
}

/// The independent-motion cue: a ball in flight (or rolling) moves on its own, while scrolling
/// letters, the head and torso of a walker, or the edges of a large object move *together* with
/// blobs beside them (edges shaken by the camera too, where the camera's motion is not known).
/// At each point of a track this looks for a neighbour that shares the ball's displacement over
/// the last few frames; a track is a ball only if, at most of its points, no neighbour did.
///
/// With D the ball's displacement from an earlier frame (the most recent one in which it had
/// moved at least a radius and clearly beyond the centroid noise), a neighbour n now shares its
/// motion when the earlier frame holds a blob at n − D, within the two centroids' noise or, for
/// a large neighbour whose centroid wanders as its shape changes, a fraction of its radius.
///
/// Neighbours are blobs within `neighbourhoodInRadii` ball radii (plus their own half-length)
/// that do not touch the ball, so a fragment of the ball itself does not count; nor does a
/// blob where the ball was in the last few frames (the residue, or ghost, that frame
/// differencing may leave behind a moving object moves with the ball by construction).
struct CommonMotionTest: Sendable {
    let criteria: TrajectoryTracker.IndependenceCriteria
    let flight: FreeFlightTest

    /// Whether a track's points show a ball moving on its own: fewer than
    /// `maximumSharedFraction` of those whose neighbours' motion is known moved with a
    /// neighbour, or fewer than `rollingMaximumSharedFraction` when the track is `isRolling`
    /// (at constant velocity, with no gravity to show it is a ball in flight: a head above its
    /// torso, a dot under a scrolling word move in step with their neighbours only now and
    /// then, as the larger blobs beside them change shape, while a rolling ball never does).
    /// A track with fewer than three known points is given the benefit of the doubt (too slow
    /// or too young to tell).
    func movesOnItsOwn(_ samples: some Collection<TrackSample>, isRolling: Bool) -> Bool {
        var known = 0, shared = 0
        for sample in samples where sample.neighbourMotion != .unknown {
            known += 1
            if sample.neighbourMotion == .shared { shared += 1 }
        }
        let allowed = isRolling ? criteria.rollingMaximumSharedFraction : criteria.maximumSharedFraction
        return known < 3 || Double(shared) < allowed * Double(known)
    }

    /// Classifies `latest`, the point a track has just taken from the newest frame of
    /// `recent`, given the track's points before it (oldest first).
    ///
    /// - Complexity: O(log B + b + N·(log B + b)) for B blobs a frame, b of them in a band of
    ///   columns around the ball and N neighbours of it; no allocation.
    func motion(
        of latest: TrackSample, after earlier: some BidirectionalCollection<TrackSample>, in recent: RecentFrames
    ) -> NeighbourMotion {
        guard let past = referencePoint(of: latest, after: earlier, in: recent) else { return .unknown }
        let displacement = past.displacement
        let ballNoise = flight.centroidNoise(radius: latest.radius)
        let reach = criteria.neighbourhoodInRadii * latest.radius
        let now = recent[age: 0]
        for index in now.blobsByColumn.blobs(nearColumn: latest.center.x, within: reach + now.blobsByColumn.longestReach) {
            let neighbour = now.blobs[index]
            let distance = latest.center.distance(to: neighbour.center)
            guard distance > latest.radius + neighbour.radius,
                  distance <= reach + neighbour.halfLength
            else { continue }
            let neighbourNoise = flight.centroidNoise(radius: neighbour.radius)
            let tolerance = max(
                flight.criteria.significance * (ballNoise * ballNoise + neighbourNoise * neighbourNoise).squareRoot(),
                criteria.shapeWanderPerRadius * neighbour.radius)
            guard !liesOnRecentPath(neighbour, of: earlier, within: tolerance) else { continue }
            let origin = PixelPoint(x: neighbour.center.x - displacement.x, y: neighbour.center.y - displacement.y)
            let hasCounterpart = past.frame.blobsByColumn.blobs(nearColumn: origin.x, within: tolerance).contains {
                let blob = past.frame.blobs[$0]
                return blob.center.distance(to: origin) <= tolerance && blob.center != past.ball
            }
            if hasCounterpart { return .shared }
        }
        return .independent
    }

    /// The earlier frame to compare with and the ball's displacement since: the most recent of
    /// the kept frames in which the track had a point at least `minimumDisplacementInRadii`
    /// radii away, and clearly more than the noise of the difference of two centroids.
    private func referencePoint(
        of latest: TrackSample, after earlier: some BidirectionalCollection<TrackSample>, in recent: RecentFrames
    ) -> (frame: RecentFrames.Frame, ball: PixelPoint, displacement: PixelVector)? {
        let noise = flight.centroidNoise(radius: latest.radius)
        let needed = max(
            criteria.minimumDisplacementInRadii * latest.radius, flight.criteria.significance * noise * 2.squareRoot())
        // The tracker keeps more frames than this test looks at (for backfilling a flight's start).
        let kept = min(recent.count, criteria.framesKept)
        var age = 1
        for sample in earlier.reversed() {
            switch recent.find(frame: sample.frame, from: &age, below: kept) {
            case .beyond: return nil
            case .missing: continue
            case .found: break
            }
            let displacement = PixelVector(x: latest.center.x - sample.center.x, y: latest.center.y - sample.center.y)
            if displacement.length >= needed {
                return (recent[age: age], sample.center, displacement)
            }
        }
        return nil
    }

    /// Whether `blob` sits where the ball was in the latest `ghostFrames` points before this one.
    private func liesOnRecentPath(
        _ blob: Blob, of earlier: some BidirectionalCollection<TrackSample>, within tolerance: Double
    ) -> Bool {
        earlier.suffix(criteria.ghostFrames).contains { $0.center.distance(to: blob.center) <= tolerance }
    }
}
