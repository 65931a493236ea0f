import struct Foundation.UUID

/// Links the blobs found in successive analysed frames into balls in flight and reports each
/// flight as Vision's `VNTrajectoryObservation` does.
///
/// Every call to ``update(blobs:frame:frameWidth:frameHeight:cameraOffset:)`` runs the steps of SORT's
/// `update()` in order:
///
/// 1. **predict** where each track's ball is at this frame's time (x linear and y quadratic in
///    time), with a gate that grows with the time since its latest point and its uncertainty;
/// 2. **associate** tracks and blobs inside the gates (`Associator`: greedy, confirmed tracks
///    first, strong blobs before weak ones);
/// 3. **update** the matched tracks; a tentative track that has followed faint clutter starts
///    afresh from a blob far clearer than any of its window (`BlobCriteria.newObjectContrastRatio`:
///    a ball thrown past the clutter); a confirmed track fits a point that keeps its free
///    flight (weighing little a blob that is only part of its ball, or its ball merged with
///    something, and setting aside one earlier point in ten that strays off the fit), reports
///    without fitting one a little off its path (the ball merged with
///    clutter or split at the apex), and refuses one that breaks it (a bounce), which then
///    counts as a miss;
/// 4. **create** a tentative track from every strong blob left over (weak blobs only extend,
///    except that a faint but solid blob starts one in a quiet frame, where nothing else
///    moves: `BlobCriteria.minimumQuietStartContrast`);
/// 5. **confirm** tentative tracks whose points (at least `trajectoryLength`, and all they hold,
///    up to twice that; at a high frame rate, a track that began with the stream needs as many
///    as `trajectoryLength` points span at 30 frames a second) pass the free-flight test, show a
///    ball moving on its own rather than with the blobs beside it (`CommonMotionTest`), and
///    were detected like a ball (`DetectionEvidence`: whole, mostly solid blobs, and ball-like
///    ones when there is no gravity to go by), without the few weak points, if any, that a
///    young track took before it found its ball, giving each a new uuid, and giving it the
///    ball's detections in the kept frames before its first point, where the flight's fit puts
///    them (a ball whose own early track was spoilt by clutter is confirmed by a track started
///    later);
/// 6. **emit** an observation for every confirmed track that gained a point in this frame;
/// 7. **reap** tracks that missed too many frames, or whose ball is predicted outside the frame
///    while not found (a ball that leaves the frame ends its trajectory; re-entering starts a
///    new one).
///
/// Tracks move tentative → confirmed ⇄ lost → removed; removed tracks are kept, storage and
/// all, and restarted for new detections, so once the tracker has seen its busiest frame it
/// allocates nothing. That holds for the observations it returns too, as long as the caller
/// lets go of a frame's observations before the next ``update(blobs:frame:frameWidth:frameHeight:cameraOffset:)``:
/// their arrays are refilled in place. An observation the caller keeps is never changed; it
/// costs a copy of its arrays (its trajectory's whole `points` among them) when its track next
/// gains a point. Memory is bounded by the most tracks
/// alive at once, each holding at most 2 × `trajectoryLength` points for fitting plus, once
/// confirmed, its trajectory's points, and room for as many points as the longest trajectory
/// so far (up to 256), and by the blobs of the last 3 × `trajectoryLength` frames (at least
/// `IndependenceCriteria.framesKept`).
///
/// Not thread-safe: use one tracker per video stream.
public final class TrajectoryTracker {
    /// The settings the tracker was made with.
    public let configuration: Configuration

    private let makeID: () -> UUID
    private let flightTest: FreeFlightTest
    private let blobStrength: BlobStrength
    private let motionTest: CommonMotionTest
    private let evidence: DetectionEvidence
    private var recentFrames: RecentFrames
    private var tracks: [Track] = []
    /// Removed tracks kept for reuse, so that the tracks clutter starts and drops every frame
    /// do not allocate.
    private var spareTracks: [Track] = []
    /// The most points any track's storage has grown to hold, up to ``pointStorageSharedUpTo``:
    /// every track, alive or spare, is given as much (``growPointStorageTogether()``).
    private var largestPointCapacity = 0
    private var predictions: [TrackPrediction] = []
    private var associator = Associator()
    private var leftoverBlobs: [Int] = []
    /// For each blob of the frame, whether a confirmed track has it: took it in association (and
    /// did not refuse it), or joined it to its ball as the other part (`SplitBall`). Such a blob
    /// may not be another confirmed ball's other part, nor start a track; a tentative track's
    /// blob may be joined, since confirmed tracks have the first claim.
    private var claimedByConfirmedTrack: [Bool] = []
    /// This frame's blobs moved into the scene's coordinates (``update(blobs:frame:frameWidth:frameHeight:cameraOffset:)``),
    /// kept so that filling them allocates nothing.
    private var sceneBlobs: [Blob] = []
    /// The frame's blobs (in the frame's coordinates) by column, to find those near a blob.
    private var frameBlobsByColumn = BlobColumnIndex()
    /// The storage of the observations returned for the last frame, refilled for the next: a
    /// caller that does not keep them past the next update makes the tracker allocate nothing
    /// for them (copy-on-write finds every array unique again).
    private var observations: [TrajectoryObservation] = []
    private var lastTime: Double?
    /// Analysed frames before the current one since the stream began (or the last reset): a
    /// track begun in its first frames may follow something that was moving before the video
    /// began (`Track.beganWithStream`, `streamStartFrames`).
    private var framesSinceStreamStart = -1
    /// How long after the detector's first motion image (``BlobDetector/framesWithoutMotion``
    /// frames in) a track still counts as beginning with the stream, in frames at 30 frames a
    /// second (a tenth of a second): something already moving can take a few frames to show a
    /// blob clear enough to start a track.
    static let streamStartFrames = 3
    /// How many analysed frames pass in the time of one at 30 frames a second, from the
    /// recent frames' times: the limits counted in frames follow it (``FramePace``).
    private var pace = FramePace()
    /// The most tracks alive at once; beyond it leftover blobs start no track, so a frame full
    /// of moving specks costs bounded time and memory. See `ResourceLimits`.
    public var maximumLiveTracks = ResourceLimits().maximumLiveTracks {
        didSet { precondition(maximumLiveTracks >= 1, "maximumLiveTracks must be at least 1") }
    }
    /// Blobs that could have started a track but did not, because `maximumLiveTracks` were alive.
    public private(set) var tracksNotStarted = 0

    /// - Parameters:
    ///   - configuration: the tracker's settings.
    ///   - makeID: where trajectory uuids come from, one call per confirmed trajectory.
    ///     Random by default; inject a sequence to make tests deterministic.
    public init(configuration: Configuration, makeID: @escaping () -> UUID = UUID.init) {
        self.configuration = configuration
        self.makeID = makeID
        self.flightTest = FreeFlightTest(criteria: configuration.flight)
        self.blobStrength = BlobStrength(criteria: configuration.blobs)
        self.motionTest = CommonMotionTest(criteria: configuration.independence, flight: flightTest)
        self.evidence = DetectionEvidence(criteria: configuration.evidence)
        self.recentFrames = RecentFrames(capacity: max(configuration.independence.framesKept, Self.backfillDepth(configuration)))
    }

    /// A tracker with the default settings except `trajectoryLength`.
    ///
    /// - Throws: `ConfigurationError` when `trajectoryLength` is outside
    ///   `Configuration.allowedTrajectoryLengths`.
    public convenience init(trajectoryLength: Int = 10, makeID: @escaping () -> UUID = UUID.init) throws(ConfigurationError) {
        self.init(configuration: try Configuration(trajectoryLength: trajectoryLength), makeID: makeID)
    }

    /// Blobs found in one analysed frame (frame size in pixels given for normalizing) →
    /// observations of the trajectories that gained a point in this frame and are reportable.
    ///
    /// Frames must come in increasing presentation time; a time that does not increase (a seek,
    /// a new stream) first resets the tracker.
    ///
    /// - Parameter cameraOffset: how far the camera has moved the picture since some fixed
    ///   earlier frame (the stream's first, say), full-frame pixels: a point of the scene shows
    ///   at p + offset. The tracker follows balls in the scene's coordinates, so that a hand-held
    ///   camera's shake, which adds a jitter of pixels to every path in the frame, does not
    ///   bend a flight's parabola or its gates; points are still reported where they show in
    ///   the frame. Zero for a camera on a tripod.
    /// - Parameter motionBeside: how much moved beside a blob of this frame (at its centre, in
    ///   frame pixels, with its radius) across a travel, as the detector that found it measures
    ///   it (``BlobDetector/motionBeside(_:radius:travel:)``): the carrier cue that keeps a ball
    ///   swung in a hand from being confirmed. Unknown by default.
    public func update(
        blobs: [Blob], frame: FrameStamp, frameWidth: Int, frameHeight: Int, cameraOffset: CameraMotion = .zero,
        motionBeside: (_ center: PixelPoint, _ radius: Double, _ travel: PixelVector) -> SideMotion? = { _, _, _ in nil }
    ) -> [TrajectoryObservation] {
        precondition(frameWidth > 0 && frameHeight > 0, "a frame needs a positive size")
        // Let go of the last frame's observations before any track adds a point, so that the
        // arrays they share with the tracks are unique again if the caller let go of them too.
        observations.removeAll(keepingCapacity: true)
        if let lastTime, frame.time <= lastTime { reset() }
        let frameInterval = lastTime.map { frame.time - $0 }
        lastTime = frame.time
        framesSinceStreamStart += 1
        let size = FrameSize(width: frameWidth, height: frameHeight, cameraOffset: cameraOffset)
        sceneBlobs.removeAll(keepingCapacity: true)
        for blob in blobs { sceneBlobs.append(size.inScene(blob)) }
        let frameBlobs = FrameBlobs(inFrame: blobs, inScene: sceneBlobs)
        frameBlobsByColumn.rebuild(blobs)
        recentFrames.append(sceneBlobs, frame: frame, size: size)
        keepPace()

        predict(at: frame.time, since: frameInterval, size: size)
        // The newest frame of `recentFrames` holds `sceneBlobs`, already indexed by column.
        associator.associate(
            predictions: predictions, blobs: sceneBlobs, byColumn: recentFrames[age: 0].blobsByColumn,
            strength: blobStrength)
        updateMatchedTracks(blobs: frameBlobs, frame: frame, size: size, motionBeside: motionBeside)
        for trackIndex in associator.unmatchedTracks {
            tracks[trackIndex].miss(ballNearlyStill: predictions[trackIndex].ballNearlyStill)
        }
        createTracks(blobs: frameBlobs, frame: frame, size: size)
        confirmTracks(size: size)
        for track in tracks where track.gainedPoint && track.state == .confirmed {
            if let observation = track.observation() { observations.append(observation) }
        }
        reap(size: size)
        growPointStorageTogether()
        return observations
    }

    /// Sets ``pace`` from the recent frames' times, and every track's with it.
    private func keepPace() {
        guard recentFrames.count >= 2 else { return }
        let intervals = recentFrames.count - 1
        let span = recentFrames[age: 0].stamp.time - recentFrames[age: intervals].stamp.time
        let newPace = FramePace(span: span, intervals: intervals)
        guard newPace != pace else { return }
        pace = newPace
        for track in tracks { track.reserveStorage(for: pace) }
        for track in spareTracks { track.reserveStorage(for: pace) }
    }

    /// Forgets every track, as at the start of a new video.
    public func reset() {
        for track in tracks { track.remove() }
        keepRemovedTracksForReuse()
        predictions.removeAll()
        recentFrames.removeAll()
        lastTime = nil
        framesSinceStreamStart = -1
    }

    // MARK: - Steps

    /// - Parameter frameInterval: seconds since the previous analysed frame; nil on the first.
    private func predict(at time: Double, since frameInterval: Double?, size: FrameSize) {
        let limits = PixelMotionLimits(configuration.motion, frameWidth: size.width)
        predictions.removeAll(keepingCapacity: true)
        for track in tracks {
            track.beginFrame()
            predictions.append(track.prediction(at: time, since: frameInterval, test: flightTest, limits: limits))
        }
    }

    private func updateMatchedTracks(
        blobs: FrameBlobs, frame: FrameStamp, size: FrameSize,
        motionBeside: (PixelPoint, Double, PixelVector) -> SideMotion?
    ) {
        leftoverBlobs.removeAll(keepingCapacity: true)
        leftoverBlobs.append(contentsOf: associator.unmatchedBlobs)
        claimedByConfirmedTrack.removeAll(keepingCapacity: true)
        claimedByConfirmedTrack.append(contentsOf: repeatElement(false, count: blobs.inFrame.count))
        for match in associator.matches where predictions[match.track].isConfirmed {
            claimedByConfirmedTrack[match.blob] = true
        }
        for match in associator.matches {
            let track = tracks[match.track]
            // Confirmed tracks come first, so a tentative track's blob that one of them joined to its
            // ball is marked by now.
            if !track.isConfirmed, claimedByConfirmedTrack[match.blob] {
                track.miss(ballNearlyStill: predictions[match.track].ballNearlyStill)
                continue
            }
            if blobStrength.isNewObject(blobs.inScene[match.blob], for: predictions[match.track]) {
                start(track, from: match.blob, of: blobs, frame, size: size)
                continue
            }
            var frameBlob = blobs.inFrame[match.blob]
            var otherPart: Int?
            if track.isConfirmed {
                // Its other part lies within the ball's diameter.
                let prediction = predictions[match.track]
                let nearby = frameBlobsByColumn.blobs(nearColumn: frameBlob.center.x, within: 2 * prediction.radius)
                otherPart = SplitBall.otherPart(
                    of: match.blob, in: blobs.inScene, candidates: nearby, isAvailable: { !claimedByConfirmedTrack[$0] },
                    prediction: prediction)
                if let otherPart { frameBlob = SplitBall.joined(frameBlob, blobs.inFrame[otherPart]) }
            }
            var detection = sample(
                frameBlob, inScene: size.inScene(frameBlob), among: blobs, frame, size: size, isStrong: match.isStrong)
            detection.detection.joinedFromParts = otherPart != nil
            if track.state == .tentative {
                detection.neighbourMotion = motionTest.motion(of: detection, after: track.history, in: recentFrames)
                if let previous = track.history.last {
                    let blob = blobs.inFrame[match.blob]
                    let travel = PixelVector(x: detection.center.x - previous.center.x, y: detection.center.y - previous.center.y)
                    if !hasNeighbour(match.blob, in: blobs.inFrame) {
                        detection.detection.beside = motionBeside(blob.center, blob.radius, travel)
                    }
                }
            }
            let wasConfirmed = track.isConfirmed
            if !track.offer(detection, point: size.point(frameBlob, frame), test: flightTest) {
                track.miss(ballNearlyStill: predictions[match.track].ballNearlyStill)
                claimedByConfirmedTrack[match.blob] = false
                leftoverBlobs.append(match.blob)
            } else if wasConfirmed {
                recentFrames.claim(blob: match.blob, age: 0)
                if let otherPart {
                    recentFrames.claim(blob: otherPart, age: 0)
                    claimedByConfirmedTrack[otherPart] = true
                }
            }
        }
        // A joined part was left unmatched in association; it starts no track.
        leftoverBlobs.removeAll { claimedByConfirmedTrack[$0] }
    }

    /// Starts `track` from blob `index`: a new (or spare) track, or one that starts afresh
    /// from a new object exactly as a new track would.
    private func start(_ track: Track, from index: Int, of blobs: FrameBlobs, _ frame: FrameStamp, size: FrameSize) {
        let blob = blobs.inFrame[index]
        let isStrong = blobStrength.isClearAndSolid(blob)
        let beganWithStream = framesSinceStreamStart <= BlobDetector.framesWithoutMotion + pace.frames(Self.streamStartFrames)
        track.start(
            first: sample(index, of: blobs, frame, size: size, isStrong: isStrong), point: size.point(blob, frame),
            beganWithStream: beganWithStream)
    }

    private func createTracks(blobs: FrameBlobs, frame: FrameStamp, size: FrameSize) {
        for blobIndex in leftoverBlobs where blobStrength.canStartTrack(blobs.inFrame[blobIndex], among: blobs.inFrame.count) {
            guard tracks.count < maximumLiveTracks else {
                tracksNotStarted += 1
                continue
            }
            let track = spareTracks.popLast() ?? newTrackGrowingSpares()
            start(track, from: blobIndex, of: blobs, frame, size: size)
            tracks.append(track)
        }
    }

    /// A new track, for when no removed one is left to reuse, made with as many spare tracks
    /// again as are alive (within ``maximumLiveTracks``). The number of tracks a busy scene
    /// keeps alive creeps up to a new peak now and then: made one at a time, each peak
    /// allocated a track (on about one frame in a hundred of foliage-1, looped), where doubling
    /// allocates a few times in all. The predictions, one per live track, are given room for
    /// them all at the same time, or they would grow at the next peak on their own.
    private func newTrackGrowingSpares() -> Track {
        let spares = min(tracks.count, maximumLiveTracks - tracks.count - 1)
        for _ in 0..<max(0, spares) { spareTracks.append(newTrack()) }
        predictions.reserveCapacity(tracks.count + spareTracks.count + 1)
        return newTrack()
    }

    private func newTrack() -> Track {
        let track = Track(
            windowLength: configuration.trajectoryLength, maximumMissedFrames: configuration.maximumMissedFrames,
            pointCapacity: largestPointCapacity)
        track.reserveStorage(for: pace)
        return track
    }

    /// The longest trajectory whose point storage every track is given: beyond it a long
    /// flight's storage grows on its own, so that one flight of minutes cannot swell every
    /// track's. 256 points are 8½ s at 30 frames a second, 10 kB a track.
    static let pointStorageSharedUpTo = 256

    /// Once a track's points outgrow every other track's storage, gives every track, alive or
    /// spare, as much room (up to ``pointStorageSharedUpTo`` points). Why: a trajectory's points
    /// grow with its flight, and a spare is reused for whatever starts next, so without this a
    /// looped clip kept allocating, long after warming up, whenever a spare that had held only
    /// short flights was given a long one. Growing them all at once allocates on the frames
    /// where the longest flight so far grows, and not after.
    private func growPointStorageTogether() {
        var largest = largestPointCapacity
        for track in tracks { largest = max(largest, min(track.pointCapacity, Self.pointStorageSharedUpTo)) }
        guard largest > largestPointCapacity else { return }
        largestPointCapacity = largest
        for track in tracks { track.reservePoints(largest) }
        for track in spareTracks { track.reservePoints(largest) }
    }

    /// How many points each track, alive or spare, can hold before its storage grows (for tests).
    var pointCapacities: [Int] { (tracks + spareTracks).map(\.pointCapacity) }

    private func confirmTracks(size: FrameSize) {
        for track in tracks where track.state == .tentative && track.gainedPoint {
            switch track.confirmIfFreeFlight(
                test: flightTest, motion: motionTest, evidence: evidence, blobs: configuration.blobs,
                trajectoryOfSameBall: { confirmedTrack(sharingBallOf: $0, size: size) }, makeID: makeID
            ) {
            case .stillTentative:
                break
            case .confirmed:
                claimPoints(of: track)
                backfill(track)
            case .sameBall(let reported):
                // The trajectory of its ball takes the points it lacks from before its first,
                // and no backfill may take them again.
                for point in track.points.reversed() where point.frame < reported.points.first?.frame ?? .min {
                    reported.prependEarlierPoint(point)
                }
                claimPoints(of: track)
            }
        }
    }

    /// How many of a tentative track's points may be another trajectory's before the track
    /// counts as following that trajectory's ball. Two balls crossing share a blob, or come
    /// within `sameBallReach` of each other, for a frame or two.
    static let sharedPointsOfOneBall = 3
    /// How near, in ball radii, a point must lie to a trajectory's point of the same frame to
    /// show its ball: two parts of one ball lie within its diameter of each other.
    static let sameBallReach = 2.0

    /// The confirmed track, if any, whose ball the tentative track's `points` follow: at least
    /// `sharedPointsOfOneBall` of them are its points (the same blobs), or that many lie within
    /// `sameBallReach` of its points and they are at least half of the frames both cover.
    ///
    /// A tentative track that began on a throwing hand can follow the ball for a long time
    /// before the throw leaves its points, while a track begun later is confirmed and
    /// backfilled with the same blobs; and a fragment of a ball beside it (at 60 fps, the edge
    /// of a ball bouncing) can start a track that follows the ball as closely, on blobs of its
    /// own. Confirming either would report one flight twice. Two balls that pass each other,
    /// at different depths, come that near for only part of the frames they share.
    private func confirmedTrack(sharingBallOf points: [TrajectoryPoint], size: FrameSize) -> Track? {
        tracks.first { other in
            guard other.isConfirmed else { return false }
            let overlap = other.overlap(with: points, reach: Self.sameBallReach, width: size.width, height: size.height)
            return overlap.samePoints >= Self.sharedPointsOfOneBall
                || (overlap.nearPoints >= Self.sharedPointsOfOneBall && 2 * overlap.nearPoints >= overlap.commonFrames)
        }
    }

    /// Marks the blobs a track just confirmed took while tentative as trajectory points in
    /// `recentFrames`, so that no other trajectory takes them when it is backfilled.
    private func claimPoints(of track: Track) {
        var age = 0
        for sample in track.history.reversed() {
            switch recentFrames.find(frame: sample.frame, from: &age, below: recentFrames.count) {
            case .beyond: return
            case .missing: continue
            case .found:
                guard let blob = recentFrames[age: age].blobs.firstIndex(where: { $0.center == sample.center })
                else { continue }
                recentFrames.claim(blob: blob, age: age)
            }
        }
    }

    /// How many analysed frames are kept for `backfill`: three windows. A track is confirmed
    /// after one window at the earliest, and a spoilt early track can hold the ball's blobs for
    /// up to two (all a tentative track keeps) before it lets go of them.
    static func backfillDepth(_ configuration: Configuration) -> Int { 3 * configuration.trajectoryLength }

    /// Gives a track just confirmed the detections of its ball in the kept frames before its
    /// first point.
    ///
    /// The ball's own early track can be spoilt, merged with clutter or outbid for its blobs,
    /// and the flight is then confirmed by a track that started later: without this its
    /// trajectory would begin part-way. Going back from the first point, each kept frame's blob
    /// nearest to where the flight's earliest window puts the ball is taken when it lies within
    /// that fit's prediction gate and has the ball's size; the search stops at a blob that is
    /// already another confirmed trajectory's point (reporting it twice would duplicate that
    /// trajectory) and after the frames in a row a track may miss (`Track.missedFrameLimit`)
    /// without one.
    private func backfill(_ track: Track) {
        guard let first = track.points.first else { return }
        var misses = 0
        for age in 1..<recentFrames.count where recentFrames[age: age].index < first.frame {
            switch earlierDetection(of: track, age: age) {
            case .point(let point, let blob):
                track.prependEarlierPoint(point)
                recentFrames.claim(blob: blob, age: age)
                misses = 0
            case .none:
                misses += 1
                if misses > track.missedFrameLimit { return }
            case .claimed, .noFit:
                return
            }
        }
    }

    /// What `backfill` finds of a track's ball in a kept frame.
    private enum EarlierDetection {
        /// The ball, as a trajectory point, and its blob's index in the frame.
        case point(TrajectoryPoint, blob: Int)
        /// No blob where the ball should be.
        case none
        /// The ball's blob is another confirmed trajectory's point.
        case claimed
        /// The track's points have no fit to go back with.
        case noFit
    }

    /// The blob of the frame `age` frames back nearest to where the track's earliest window puts
    /// its ball, within that fit's gate and of the ball's size. (A function of its own so that
    /// its copy of the frame is gone before `backfill` marks the blob: marking it while a copy
    /// is alive would copy the frame's flags.)
    private func earlierDetection(of track: Track, age: Int) -> EarlierDetection {
        let frame = recentFrames[age: age]
        guard let expected = track.earlierPosition(at: frame.stamp.time, test: flightTest) else { return .noFit }
        let mismatch = configuration.blobs.maximumRadiusMismatch
        var nearest: (index: Int, distance: Double)?
        for (index, blob) in frame.blobs.enumerated() {
            let distance = blob.center.distance(to: expected.center)
            let ratio = blob.radius / max(expected.radius, .leastNormalMagnitude)
            guard distance <= expected.gate, ratio <= mismatch, ratio >= 1 / mismatch,
                  distance < nearest?.distance ?? .infinity
            else { continue }
            nearest = (index, distance)
        }
        guard let nearest else { return .none }
        guard !frame.isClaimed[nearest.index] else { return .claimed }
        return .point(frame.size.point(frame.size.inFrame(frame.blobs[nearest.index]), frame.stamp), blob: nearest.index)
    }

    /// Removes a track that missed more frames than allowed, a single-point track that missed
    /// one (it has no prediction worth keeping), and one whose ball is predicted outside the
    /// frame and was not found there.
    private func reap(size: FrameSize) {
        for (index, track) in tracks.enumerated() where !track.gainedPoint {
            // Tracks created in this frame have gained their point, so `index` is in `predictions`.
            let leftFrame = !size.contains(sceneLocation: predictions[index].center)
            let singlePoint = track.history.count == 1
            if leftFrame || singlePoint || track.countedMisses > track.missedFrameLimit {
                track.remove()
            }
        }
        keepRemovedTracksForReuse()
    }

    /// Moves the removed tracks from `tracks` to `spareTracks`, keeping the others in order.
    private func keepRemovedTracksForReuse() {
        var kept = 0
        for index in tracks.indices {
            if tracks[index].state == .removed {
                spareTracks.append(tracks[index])
            } else {
                tracks.swapAt(kept, index)
                kept += 1
            }
        }
        tracks.removeLast(tracks.count - kept)
    }

    /// How many of its radii around a blob another blob must keep clear for the motion beside
    /// it to tell of a carrier (``SideMotion``).
    static let carrierSearchRadii = 5.0

    /// Whether another of the frame's blobs reaches within ``carrierSearchRadii`` of blob
    /// `index`'s centre. The motion beside a ball is then that neighbour's (a walker it passes,
    /// a banner's letters, a walker's torso below its head), whatever it is, and tells nothing
    /// of an arm: a swinging arm is too faint and thin to be found as a blob of its own.
    private func hasNeighbour(_ index: Int, in blobs: [Blob]) -> Bool {
        let ball = blobs[index]
        let reach = Self.carrierSearchRadii * ball.radius
        let band = frameBlobsByColumn.blobs(nearColumn: ball.center.x, within: reach + frameBlobsByColumn.longestReach)
        return band.contains { other in
            guard other != index else { return false }
            let neighbour = blobs[other]
            return ball.center.distance(to: neighbour.center) - neighbour.halfLength < reach
        }
    }

    /// Blob `index` of the frame as a track's sample: where it is in the scene, and how it
    /// looked in the frame.
    private func sample(_ index: Int, of blobs: FrameBlobs, _ frame: FrameStamp, size: FrameSize, isStrong: Bool) -> TrackSample {
        sample(blobs.inFrame[index], inScene: blobs.inScene[index], among: blobs, frame, size: size, isStrong: isStrong)
    }

    /// `blob`, one of the frame's or two joined, as a track's sample.
    private func sample(
        _ blob: Blob, inScene sceneBlob: Blob, among blobs: FrameBlobs, _ frame: FrameStamp, size: FrameSize, isStrong: Bool
    ) -> TrackSample {
        TrackSample(
            frame: frame.index, time: frame.time, center: sceneBlob.center, radius: blob.radius, missesBefore: 0,
            detection: DetectionQuality(
                blob, among: blobs.inFrame, byColumn: frameBlobsByColumn, isStrong: isStrong, frameWidth: size.width,
                frameHeight: size.height))
    }
}

/// A frame's blobs as found (frame coordinates), and the same blobs, index for index, in the
/// scene's coordinates, where tracks are followed.
private struct FrameBlobs {
    let inFrame: [Blob]
    let inScene: [Blob]
}

/// An analysed frame's size, for normalizing and for telling whether a point is inside it, and
/// where the camera has moved its picture.
struct FrameSize {
    let width: Int
    let height: Int
    let cameraOffset: CameraMotion

    /// `blob` with its centre where the scene point it shows was before the camera moved.
    func inScene(_ blob: Blob) -> Blob {
        var moved = blob
        moved.center = PixelPoint(x: blob.center.x - cameraOffset.dx, y: blob.center.y - cameraOffset.dy)
        return moved
    }

    /// A blob of the scene where it shows in this frame (the inverse of `inScene`).
    func inFrame(_ blob: Blob) -> Blob {
        var moved = blob
        moved.center = PixelPoint(x: blob.center.x + cameraOffset.dx, y: blob.center.y + cameraOffset.dy)
        return moved
    }

    /// Whether a point of the scene shows inside the frame.
    func contains(sceneLocation point: PixelPoint) -> Bool {
        let x = point.x + cameraOffset.dx, y = point.y + cameraOffset.dy
        return x >= 0 && y >= 0 && x <= Double(width) && y <= Double(height)
    }

    /// A blob as a trajectory point: normalized position (bottom-left origin), radius ÷ width.
    func point(_ blob: Blob, _ frame: FrameStamp) -> TrajectoryPoint {
        TrajectoryPoint(
            frame: frame.index, time: frame.time,
            location: blob.center.normalized(width: width, height: height),
            radius: blob.radius / Double(width))
    }
}

/// `TrajectoryTracker.MotionLimits` in pixels for one frame width.
struct PixelMotionLimits {
    /// Pixels per second.
    let maximumSpeed: Double
    /// Pixels per second squared.
    let maximumAcceleration: Double

    init(_ limits: TrajectoryTracker.MotionLimits, frameWidth: Int) {
        maximumSpeed = limits.maximumSpeed * Double(frameWidth)
        maximumAcceleration = limits.maximumAcceleration * Double(frameWidth)
    }
}
