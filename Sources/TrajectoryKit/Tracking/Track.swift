import DequeModule
import Foundation

/// Where a track is in its life, as in ByteTrack.
enum TrackState: Sendable, Hashable {
    /// Gathering points; not yet shown to be one free flight, so not reported.
    case tentative
    /// A free flight, reported whenever it gains a point.
    case confirmed
    /// Confirmed, but without a point in the latest analysed frame(s): occluded or missed.
    case lost
    /// Finished: dropped by the tracker at the end of the frame.
    case removed
}

/// How one track's points compare with another's in the frames both have a point in
/// (`Track.overlap(with:reach:width:height:)`).
struct PointOverlap: Equatable {
    /// Frames in which both have a point.
    var commonFrames = 0
    /// Of those, frames in which the two points are the same (the same blob).
    var samePoints = 0
    /// Frames in which the two points lie within the reach asked for (the same points included):
    /// two parts of one ball, such as a fragment beside it or its halves at the apex, lie within
    /// its diameter of each other.
    var nearPoints = 0
}

/// One candidate ball: its latest points for fitting, and, once confirmed, its whole life.
final class Track {
    private(set) var state = TrackState.tentative
    /// Assigned when the track is confirmed, so ids are spent only on reported trajectories.
    private(set) var uuid: UUID?
    /// Analysed frames in a row without a point.
    private(set) var missedFrames = 0
    /// How many of `missedFrames` were frames in which the ball was predicted too still to be
    /// seen (`miss(ballNearlyStill:)`), up to `missedFrameLimit`.
    private var excusedMisses = 0
    /// The misses that count towards `missedFrameLimit`.
    var countedMisses: Int { missedFrames - excusedMisses }
    /// Whether the track took a point in the frame being analysed.
    private(set) var gainedPoint = false

    /// The latest points, oldest first. Predictions and flight tests use the last
    /// `windowLength`; a tentative track keeps up to twice as many (at 30 frames a second; as
    /// many as span the same time at a higher rate, see `pace`), so that what it followed
    /// before its latest window still counts against confirming it (a ball swung in a circle
    /// looks like a flight for a third of a turn, not for two thirds).
    private(set) var history: Deque<TrackSample>
    /// Every point of the trajectory, normalized as reported. While tentative it mirrors
    /// `history`; once confirmed it only grows.
    private(set) var points: [TrajectoryPoint] = []
    /// The storage of the latest observation's detected and projected points, kept for the next.
    private var reportedDetectedPoints: [NormalizedPoint] = []
    private var reportedProjectedPoints: [NormalizedPoint] = []
    /// Sums of the accelerations, and of their standard errors, of every window accepted since
    /// confirmation, and how many there were.
    private var accelerationSum = PixelVector(x: 0, y: 0)
    private var standardErrorSum = PixelVector(x: 0, y: 0)
    private var accelerationCount = 0
    /// The latest free-flight assessment of the window, for the confidence.
    private(set) var latestAssessment: FlightAssessment?
    /// The ball's radius, pixels, as its points showed it when the track was confirmed: what a
    /// later detection's size is compared with (meaningless before).
    private var ballRadius = 0.0

    /// Vision's `trajectoryLength`: the points a window holds.
    let windowLength: Int
    /// How many of the latest points an observation's projected points are at, as in Vision.
    static let projectedPointCount = 5
    /// Analysed frames in a row the track may go without a fitted point, at 30 frames a second.
    let maximumMissedFrames: Int
    /// How many analysed frames pass in the time of one at 30 frames a second: the tracker
    /// sets it from the frames' times (``FramePace``), and the limits counted in frames below
    /// follow it. Set it through `reserveStorage(for:)`.
    private(set) var pace = FramePace()
    /// Analysed frames in a row the track may go without a fitted point at the current pace.
    var missedFrameLimit: Int { pace.frames(maximumMissedFrames) }
    /// The most points a tentative track keeps.
    var tentativeHistoryLength: Int { pace.frames(2 * windowLength) }
    /// Whether the track began as the stream began to show motion
    /// (`TrajectoryTracker.streamStartFrames`): its object may have been moving before the
    /// video begins, so its first points need not be where its motion began, and nothing it
    /// followed before them counts against confirming it.
    private(set) var beganWithStream = false
    /// The fewest points the track is confirmed on: a window, or, for a track that began with
    /// the stream, as many as a window spans at 30 frames a second (twice as many at 60).
    ///
    /// Why: a track is confirmed on all the points it holds, up to two windows' time, so what
    /// its object did before a window of flight counts against it: a light circling on a
    /// wheel, tracked since it came into view, never shows a flight. A track that began with
    /// the stream holds no such past. At 60 frames a second its first window spans a sixth of a
    /// second, in which a light circling once in two seconds turns 30°, an arc that one
    /// constant acceleration fits within the noise (on the accuracy report's 60 fps clips,
    /// half of the false trajectories began in the first frames). At 30 frames a second a
    /// window already spans a third of a second, and nothing changes.
    var leastPointsToConfirm: Int { beganWithStream ? pace.frames(windowLength) : windowLength }

    /// A removed track, ready to `start` again; its storage is kept so that starting it
    /// allocates nothing (the tracker keeps removed tracks for reuse). `pointCapacity` asks
    /// for room for a longer trajectory's points than a tentative track holds.
    init(windowLength: Int, maximumMissedFrames: Int, pointCapacity: Int) {
        self.windowLength = windowLength
        self.maximumMissedFrames = maximumMissedFrames
        self.history = Deque()
        points.reserveCapacity(pointCapacity)
        reserveStorage(for: pace)
        // And for what an observation reports, so that a track's first report does not either.
        reportedDetectedPoints.reserveCapacity(windowLength)
        reportedProjectedPoints.reserveCapacity(Self.projectedPointCount)
        state = .removed
    }

    /// Sets the pace, and gives the track room for all a tentative track then holds, so that
    /// gathering points does not allocate.
    func reserveStorage(for pace: FramePace) {
        self.pace = pace
        let most = tentativeHistoryLength + 1
        history.reserveCapacity(most)
        points.reserveCapacity(most)
        strays.reserveCapacity(most / 10 + 1)
        keptSamples.reserveCapacity(most)
        keptIndices.reserveCapacity(most)
    }

    /// Starts the track afresh, tentative, from one detection (`beganWithStream`: see
    /// ``beganWithStream``).
    func start(first sample: TrackSample, point: TrajectoryPoint, beganWithStream: Bool) {
        self.beganWithStream = beganWithStream
        state = .tentative
        uuid = nil
        missedFrames = 0
        excusedMisses = 0
        history.removeAll(keepingCapacity: true)
        history.append(sample)
        // A confirmed track's points may still be shared with an observation handed out; then
        // this gives the track a fresh buffer rather than touching the caller's.
        points.removeAll(keepingCapacity: true)
        points.append(point)
        accelerationSum = PixelVector(x: 0, y: 0)
        standardErrorSum = PixelVector(x: 0, y: 0)
        accelerationCount = 0
        latestAssessment = nil
        gainedPoint = true
    }

    var isConfirmed: Bool { state == .confirmed || state == .lost }
    /// The latest `windowLength` points (fewer while the track is young).
    var window: Deque<TrackSample>.SubSequence { history.suffix(windowLength) }
    var meanRadius: Double { Self.meanRadius(of: window) }

    private static func meanRadius(of samples: some Collection<TrackSample>) -> Double {
        samples.reduce(0) { $0 + $1.radius } / Double(samples.count)
    }

    /// The whole track's acceleration since confirmation (meaningless before).
    var trackAcceleration: AccelerationEstimate {
        let count = Double(max(accelerationCount, 1))
        return AccelerationEstimate(value: accelerationSum / count, standardError: standardErrorSum / count)
    }

    /// Clears the per-frame flag before a new frame is analysed.
    func beginFrame() { gainedPoint = false }

    /// How many points the track's storage holds before it must grow.
    var pointCapacity: Int { points.capacity }

    /// Gives the track's storage room for `count` points, unless it has it already. (Reserving
    /// on a buffer that an observation still shares copies it, so it is done only when needed.)
    func reservePoints(_ count: Int) {
        if points.capacity < count { points.reserveCapacity(count) }
    }

    /// Offers the track a detection. A tentative track always takes it. A confirmed one takes
    /// it as `continuation(of:test:)` decides: fitted, displaced (reported but not fitted), or
    /// refused (a bounce, a catch, a stray blob in the gate), in which case the caller treats
    /// the frame as a miss for this track.
    func offer(_ sample: TrackSample, point: TrajectoryPoint, test: FreeFlightTest) -> Bool {
        var sample = sample
        sample.missesBefore = missedFrames
        if isConfirmed {
            sample.centroidNoise = test.centroidNoise(of: sample, ballRadius: ballRadius)
            switch continuation(of: sample, test: test) {
            case .fitted(let assessment):
                history.append(sample)
                latestAssessment = assessment
                accumulate(assessment.acceleration)
            case .displaced:
                // Reported, but for the fit the frame counts as missed.
                points.append(point)
                missedFrames += 1
                gainedPoint = true
                return true
            case .refused:
                return false
            }
            state = .confirmed
        } else {
            history.append(sample)
        }
        points.append(point)
        trimHistory()
        missedFrames = 0
        excusedMisses = 0
        gainedPoint = true
        return true
    }

    /// How a confirmed track takes a detection.
    private enum Continuation {
        /// On the flight: within its gate, and its latest points with this one are still one
        /// free flight with the whole track's acceleration.
        case fitted(FlightAssessment)
        /// The ball, but displaced off its path: the detection merged with something behind it,
        /// split in two at the apex where a slow ball's middle stops changing, or blurred. It is
        /// reported, but kept out of the fit so that it cannot drag the flight after clutter.
        case displaced
        /// Not the ball in flight any more.
        case refused
    }

    /// Fitted when `sample` lies within the flight's gate (see `flightGate`) and keeps the
    /// flight (a blob that is only part of the ball, or the ball merged with something, has a
    /// wider gate and weighs little in the fit: `FreeFlightTest.centroidNoise(of:ballRadius:)`);
    /// displaced when it lies within `displacedDetectionInRadii` ball radii beyond that
    /// gate and the flight has been fitted within the last `missedFrameLimit` frames (a
    /// displaced point counts as a miss for the fit, so the prediction never goes stale);
    /// refused otherwise. A bounce or a catch turns the ball at once, so its points soon lie
    /// farther off the predicted path than the ball's size.
    private func continuation(of sample: TrackSample, test: FreeFlightTest) -> Continuation {
        guard let fit = KinematicFit(samples: window, referenceNoise: test.centroidNoise(radius: meanRadius))
        else { return .refused }
        let gate = flightGate(fit: fit, at: sample.time, test: test, detectionNoise: sample.centroidNoise)
        let deviation = fit.position(at: sample.time).distance(to: sample.center)
        if deviation <= gate {
            history.append(sample)
            let assessment = latestWindowAllowingOneStray(test: test)
            history.removeLast()
            if assessment.isFreeFlight, test.continues(trackAcceleration, with: assessment.acceleration) {
                return .fitted(assessment)
            }
        }
        let isDisplaced = deviation <= gate + displacementAllowance(test: test) && countedMisses < missedFrameLimit
        return isDisplaced ? .displaced : .refused
    }

    /// The latest window assessed as a flight, allowing one point in ten to be a stray as in
    /// confirming a track (a fragment of the ball, a blurred streak measured off centre): a
    /// point that stays in the window for ten frames must not leave them all unfitted. The
    /// newest point, the one being taken, is never set aside: it must fit.
    private func latestWindowAllowingOneStray(test: FreeFlightTest) -> FlightAssessment {
        assessAllowingStrays((history.count - window.count)..<history.count, test: test, for: .continuing, keepingNewest: true)
    }

    /// How far beyond its flight's gate a confirmed track still takes a detection as its ball.
    private func displacementAllowance(test: FreeFlightTest) -> Double {
        test.criteria.displacedDetectionInRadii * meanRadius
    }

    /// Records an analysed frame in which the track found no point.
    ///
    /// A confirmed ball predicted to be nearly still (`TrackPrediction.ballNearlyStill`: at
    /// the apex of a steep flight, filmed at a high frame rate) shows little or nothing in the
    /// motion image, which compares a frame with the ones just before it, so missing it there
    /// is no sign that the flight ended: such misses, up to `missedFrameLimit` of them, do
    /// not count towards that limit. (At 60 frames a second a ball tossed 130 pixels high moves
    /// less than a pixel a frame for six frames around its apex.)
    func miss(ballNearlyStill: Bool) {
        missedFrames += 1
        if ballNearlyStill, excusedMisses < missedFrameLimit { excusedMisses += 1 }
        if state == .confirmed { state = .lost }
    }

    /// For a tentative track with at least `leastPointsToConfirm` points (a window, more for
    /// one that began with the stream at a high frame rate): confirms it, taking an id from
    /// `makeID`, when all the points it holds (up to two windows) are one free flight of a ball
    /// moving on its own (`CommonMotionTest`) and detected like one (`DetectionEvidence`),
    /// allowing one point in ten to be a stray detection (a fragment of the ball, a blob beside
    /// it) that is then dropped. Otherwise it keeps gathering points, dropping the oldest
    /// beyond two windows, so a flight that followed some other motion is confirmed once that
    /// motion has left its history.
    ///
    /// A track that began on a few weak detections unlike its ball (no more than half a window
    /// of them: fragments of the ball, the edge of a walker it passed) before it found the ball
    /// is judged without them, as the track that would have started on the ball's first clear
    /// blob had this one not taken it (`weakStartLength(unlike:)`). A longer weak start, or
    /// one like the points that follow it (a faint thing growing clearer), is the track's own
    /// evidence of following clutter and always counts.
    ///
    /// A track that would be confirmed while a confirmed track follows its ball
    /// (`trajectoryOfSameBall`, asked of its points) is removed instead, and says which.
    func confirmIfFreeFlight(
        test: FreeFlightTest, motion: CommonMotionTest, evidence: DetectionEvidence, blobs: TrajectoryTracker.BlobCriteria,
        trajectoryOfSameBall: ([TrajectoryPoint]) -> Track?, makeID: () -> UUID
    ) -> Confirmation {
        guard state == .tentative, history.count >= leastPointsToConfirm else { return .stillTentative }
        var weakStart = 0
        var found = assessWithoutStrays(from: 0, test: test, motion: motion, evidence: evidence)
        if found == nil {
            weakStart = weakStartLength(unlike: blobs)
            if weakStart > 0, history.count - weakStart >= leastPointsToConfirm {
                found = assessWithoutStrays(from: weakStart, test: test, motion: motion, evidence: evidence)
            }
        }
        guard let assessment = found else { return .stillTentative }
        strays.sort()
        for stray in strays.reversed() {
            history.remove(at: stray)
            points.remove(at: stray)
        }
        history.removeFirst(weakStart)
        points.removeFirst(weakStart)
        // Asked only now, as it searches other tracks' points: the flight may be one already
        // reported, which must not get a second uuid.
        if let reported = trajectoryOfSameBall(points) {
            remove()
            return .sameBall(as: reported)
        }
        latestAssessment = assessment
        accumulate(assessment.acceleration)
        ballRadius = meanRadius
        uuid = makeID()
        state = .confirmed
        // The history is trimmed to a window at the next point; until then its earliest points
        // tell where the ball was before the track began (`earlierPosition(at:test:)`).
        return .confirmed
    }

    /// What `confirmIfFreeFlight` did.
    enum Confirmation {
        /// Nothing: the track stays tentative.
        case stillTentative
        /// Confirmed as a new trajectory.
        case confirmed
        /// Removed, as it follows the ball of a confirmed track, which its points belong to.
        case sameBall(as: Track)
    }

    /// Indices into `history` of the points the latest `assessWithoutStrays` call set aside;
    /// kept between calls so that assessing does not allocate.
    private var strays: [Int] = []

    /// The points of `history` in a range without the strays, as `gatherKeptSamples(in:)` left
    /// them, and each one's index in `history`; kept between calls so that assessing allocates
    /// nothing. The fits read them several times over: from one contiguous array rather than
    /// through the deque and the strays, a tenth less of a busy scene's time went (its clutter
    /// tracks are assessed at every frame).
    private var keptSamples: [TrackSample] = []
    private var keptIndices: [Int] = []

    /// Fills `keptSamples` and `keptIndices` with the points of `history` in `range` that are
    /// not strays.
    private func gatherKeptSamples(in range: Range<Int>) {
        keptSamples.removeAll(keepingCapacity: true)
        keptIndices.removeAll(keepingCapacity: true)
        for index in range where !strays.contains(index) {
            keptSamples.append(history[index])
            keptIndices.append(index)
        }
    }

    /// Assesses the points of `history` in `range` for `purpose`, setting aside up to one point
    /// in ten as strays (the worst fitting first, but never the newest when `keepingNewest`)
    /// while the fit is poor; the strays are left in `strays`, the rest in `keptSamples`.
    private func assessAllowingStrays(
        _ range: Range<Int>, test: FreeFlightTest, for purpose: FreeFlightTest.Purpose, keepingNewest: Bool
    ) -> FlightAssessment {
        strays.removeAll(keepingCapacity: true)
        gatherKeptSamples(in: range)
        let mostStrays = range.count / 10
        var (assessment, worstFitting) = test.assess(keptSamples, for: purpose, findingWorst: mostStrays > 0)
        while let kept = worstFitting {
            let worst = keptIndices[kept]
            if keepingNewest && worst == range.upperBound - 1 { break }
            strays.append(worst)
            gatherKeptSamples(in: range)
            (assessment, worstFitting) = test.assess(keptSamples, for: purpose, findingWorst: strays.count < mostStrays)
        }
        return assessment
    }

    /// How many of the oldest points are the weak start of a track that then found a clear
    /// ball: the longest prefix that ends in a weak point just before a strong one and of
    /// which at least half are weak. It counts only when it is the track's real start (none of
    /// its points has been dropped for length), no longer than half a window, and each of its
    /// weak points is unlike the points after it: `newObjectContrastRatio` times fainter
    /// than their mean, or of a radius off theirs by more than `maximumRadiusMismatch`.
    /// 0 otherwise.
    private func weakStartLength(unlike criteria: TrajectoryTracker.BlobCriteria) -> Int {
        guard history.count < tentativeHistoryLength else { return 0 }
        var weakCount = 0
        var length = 0
        for index in 0..<(history.count - 1) where !history[index].detection.isStrong {
            weakCount += 1
            if 2 * weakCount >= index + 1, history[index + 1].detection.isStrong { length = index + 1 }
        }
        guard length > 0, length <= windowLength / 2 else { return 0 }
        let rest = history[length...]
        let meanContrast = rest.reduce(0) { $0 + Double($1.detection.contrast) } / Double(rest.count)
        let meanRadius = Self.meanRadius(of: rest)
        for sample in history[..<length] where !sample.detection.isStrong {
            let ratio = sample.radius / meanRadius
            let isFainter = Double(sample.detection.contrast) * criteria.newObjectContrastRatio <= meanContrast
            let isOtherSize = ratio > criteria.maximumRadiusMismatch || ratio < 1 / criteria.maximumRadiusMismatch
            guard isFainter || isOtherSize else { return 0 }
        }
        return length
    }

    /// Assesses the history from index `start` on for confirmation, allowing strays
    /// (`assessAllowingStrays`). Returns the assessment when the rest is a free flight of a
    /// ball moving on its own and detected like one, with the strays left in `strays`.
    private func assessWithoutStrays(
        from start: Int, test: FreeFlightTest, motion: CommonMotionTest, evidence: DetectionEvidence
    ) -> FlightAssessment? {
        let range = start..<history.count
        let assessment = assessAllowingStrays(range, test: test, for: .confirming(travelOver: windowLength), keepingNewest: false)
        let kept = keptSamples
        guard assessment.isFreeFlight, motion.movesOnItsOwn(kept, isRolling: assessment.isRolling),
              evidence.supportsConfirmation(kept, isRolling: assessment.isRolling)
        else { return nil }
        return assessment
    }

    func remove() { state = .removed }

    private func trimHistory() {
        let limit = isConfirmed ? windowLength : tentativeHistoryLength
        guard history.count > limit else { return }
        let excess = history.count - limit
        history.removeFirst(excess)
        if !isConfirmed { points.removeFirst(excess) }
    }

    /// Where the track expects its ball at `time`, with a gate that grows with the time since
    /// the latest point and with the fit's uncertainty.
    ///
    /// - One point: no velocity yet, so the gate is the distance the fastest ball covers.
    /// - Two or more: `KinematicFit` of the window (x linear, y quadratic in time; with two
    ///   points, constant velocity), gated as `gateRadius` explains.
    ///
    /// - Parameter frameInterval: seconds since the previous analysed frame (nil on the first),
    ///   for `TrackPrediction.ballNearlyStill`.
    func prediction(
        at time: Double, since frameInterval: Double?, test: FreeFlightTest, limits: PixelMotionLimits
    ) -> TrackPrediction {
        let radius = meanRadius
        let window = self.window
        let latest = window[window.index(before: window.endIndex)]
        let interval = time - latest.time
        guard let fit = KinematicFit(samples: window, referenceNoise: test.centroidNoise(radius: radius)) else {
            let noise = test.centroidNoise(radius: radius)
            return TrackPrediction(
                isConfirmed: isConfirmed, center: latest.center,
                gateRadius: limits.maximumSpeed * interval + test.criteria.significance * noise * 2.squareRoot(),
                radius: radius, speed: nil, interval: interval)
        }
        return TrackPrediction(
            isConfirmed: isConfirmed, center: fit.position(at: time),
            gateRadius: gateRadius(fit: fit, at: time, test: test, limits: limits),
            radius: radius, speed: fit.velocity(at: latest.time).length, interval: interval,
            faintTrackContrast: faintTrackContrast,
            ballNearlyStill: isNearlyStill(fit: fit, at: time, since: frameInterval, test: test))
    }

    /// Whether the track is a confirmed flight (falling, not rolling) whose fit moves the ball
    /// less than `stillBallTravelInRadii` of its radii over the `frameInterval` before `time`.
    private func isNearlyStill(
        fit: KinematicFit, at time: Double, since frameInterval: Double?, test: FreeFlightTest
    ) -> Bool {
        guard isConfirmed, let frameInterval, latestAssessment?.isRolling == false else { return false }
        let travel = fit.position(at: time).distance(to: fit.position(at: time - frameInterval))
        return travel < test.criteria.stillBallTravelInRadii * ballRadius
    }

    /// The contrast of the clearest point of the latest window when the track is tentative,
    /// holds at least a window of points and no more than half of that window are strong: it
    /// has been following faint clutter (see `BlobCriteria.newObjectContrastRatio`). Nil
    /// otherwise.
    private var faintTrackContrast: Double? {
        guard state == .tentative, history.count >= windowLength else { return nil }
        let window = self.window
        let strongCount = window.reduce(0) { $0 + ($1.detection.isStrong ? 1 : 0) }
        guard 2 * strongCount <= window.count else { return nil }
        return window.reduce(0) { max($0, Double($1.detection.contrast)) }
    }

    /// How far from `fit`'s position at `time` a detection of this ball may be.
    ///
    /// A confirmed track allows its flight's gate (`flightGate`) plus what a displaced
    /// detection may add (`continuation(of:test:)`). A tentative track has not been shown to be
    /// a flight, so it allows the largest acceleration a ball may have (`limits`) to bend its
    /// path beyond the fit: gating it with the flight model would cut any other motion (a
    /// circle, a swing) into fresh short tracks, each of which could pass for a flight over one
    /// window.
    private func gateRadius(fit: KinematicFit, at time: Double, test: FreeFlightTest, limits: PixelMotionLimits) -> Double {
        if isConfirmed { return flightGate(fit: fit, at: time, test: test) + displacementAllowance(test: test) }
        return noiseGate(fit: fit, at: time, test: test) + bending(by: limits.maximumAcceleration, at: time)
    }

    /// The gate of a confirmed flight at `time`: the prediction's noise, plus the bending
    /// that the sideways part of gravity the allowed tilt adds could cause (the fit has x
    /// linear in time). A bounce falls outside it.
    private func flightGate(fit: KinematicFit, at time: Double, test: FreeFlightTest, detectionNoise: Double = 0) -> Double {
        let sideways = tan(test.criteria.maximumTilt) * abs(fit.acceleration.y)
        return noiseGate(fit: fit, at: time, test: test, detectionNoise: detectionNoise) + bending(by: sideways, at: time)
    }

    /// `significance` standard deviations of the distance between the fit's position at `time`
    /// and a new detection there, whose centre carries `detectionNoise` when that is larger
    /// than the ordinary centroid noise.
    private func noiseGate(fit: KinematicFit, at time: Double, test: FreeFlightTest, detectionNoise: Double = 0) -> Double {
        let noise = test.centroidNoise(radius: meanRadius)
        return test.criteria.significance
            * fit.predictionStandardDeviation(at: time, centroidNoise: noise, detectionNoise: max(noise, detectionNoise))
    }

    /// How far an acceleration the fit does not model can bend the path at `time` away from
    /// the fit: ½·a·|(t − t_first)(t − t_last)| over the window's span (the error of
    /// interpolating a parabola through its end points).
    private func bending(by acceleration: Double, at time: Double) -> Double {
        let window = self.window
        return 0.5 * acceleration * abs((time - window.first!.time) * (time - window.last!.time))
    }

    /// Where the track's earliest window of points puts its ball at an earlier `time`, with the
    /// fit's prediction gate there (its noise only: a window that passed as a free flight
    /// extrapolates back as well as forward) and the window's mean radius. Nil without a fit.
    func earlierPosition(at time: Double, test: FreeFlightTest) -> (center: PixelPoint, gate: Double, radius: Double)? {
        let earliest = history.prefix(windowLength)
        let radius = Self.meanRadius(of: earliest)
        let noise = test.centroidNoise(radius: radius)
        guard let fit = KinematicFit(samples: earliest, referenceNoise: noise) else { return nil }
        let gate = test.criteria.significance * fit.predictionStandardDeviation(at: time, centroidNoise: noise)
        return (fit.position(at: time), gate, radius)
    }

    /// How `others` (in frame order) compare with this track's points, in the frames both
    /// have a point in: the same point (the same blob), or one within `reach` times the larger of
    /// the two radii, in pixels of a `width` × `height` frame (see `PointOverlap`).
    func overlap(with others: [TrajectoryPoint], reach: Double, width: Int, height: Int) -> PointOverlap {
        var overlap = PointOverlap()
        guard let first = others.first else { return overlap }
        // Both are in frame order: find `first`'s frame by bisection, then walk.
        var low = points.startIndex, high = points.endIndex
        while low < high {
            let middle = (low + high) / 2
            if points[middle].frame < first.frame { low = middle + 1 } else { high = middle }
        }
        for other in others {
            while low < points.endIndex, points[low].frame < other.frame { low += 1 }
            guard low < points.endIndex, points[low].frame == other.frame else { continue }
            let point = points[low]
            overlap.commonFrames += 1
            if point == other { overlap.samePoints += 1 }
            let distance = point.location.pixels(width: width, height: height)
                .distance(to: other.location.pixels(width: width, height: height))
            if distance <= reach * max(point.radius, other.radius) * Double(width) { overlap.nearPoints += 1 }
        }
        return overlap
    }

    /// Adds a detection of the ball from before the track's first point (found by
    /// `TrajectoryTracker.backfill`, or given by a later track on the same ball); each must be
    /// earlier than the one added before it.
    func prependEarlierPoint(_ point: TrajectoryPoint) {
        precondition(point.frame < points.first?.frame ?? .max, "earlier points are added newest first")
        points.insert(point, at: 0)
    }

    /// The observation Vision would report now: the latest `windowLength` points, the
    /// y = a·x² + b·x + c fit over them, the fit at the x of the last five, and the whole life.
    func observation() -> TrajectoryObservation? {
        guard let uuid, let first = points.first, let latest = points.last else { return nil }
        let detected = points.suffix(windowLength)
        // Refilled in place: once the caller has let go of the last observation (and the
        // tracker of its own copy), its arrays are unique again and no storage is allocated.
        reportedDetectedPoints.removeAll(keepingCapacity: true)
        for point in detected { reportedDetectedPoints.append(point.location) }
        guard let fit = ParabolaFit(points: reportedDetectedPoints) else { return nil }
        reportedProjectedPoints.removeAll(keepingCapacity: true)
        for point in reportedDetectedPoints.suffix(Self.projectedPointCount) {
            reportedProjectedPoints.append(NormalizedPoint(x: point.x, y: fit.coefficients.evaluate(at: point.x)))
        }
        return TrajectoryObservation(
            uuid: uuid,
            timeRange: TimeRange(start: first.time, duration: latest.time - first.time),
            detectedPoints: reportedDetectedPoints,
            projectedPoints: reportedProjectedPoints,
            equationCoefficients: fit.coefficients,
            confidence: Float(confidence),
            movingAverageRadius: detected.reduce(0) { $0 + $1.radius } / Double(detected.count),
            points: points)
    }

    /// How much the latest points look like one ball in free flight, in [0, 1]: the product of
    /// - the fit quality, exp(−½·max(0, ρ² − 1)) for the constant-acceleration fit's residual ρ
    ///   in units of the centroid noise (1 while the residual is at the noise level, 0.22 at
    ///   the largest residual a flight may have by default), and
    /// - the continuity, the fraction of the analysed frames spanned by the window in which
    ///   the ball was found.
    var confidence: Double {
        guard let latestAssessment else { return 0 }
        let residual = latestAssessment.normalizedResidual
        let fitQuality = exp(-0.5 * max(0, residual * residual - 1))
        let misses = window.dropFirst().reduce(0) { $0 + $1.missesBefore }
        let continuity = Double(window.count) / Double(window.count + misses)
        return min(1, max(0, fitQuality * continuity))
    }

    /// Adds a window's acceleration to the whole track's: the plain mean of the windows'
    /// values, and of their standard errors (windows share most of their points, so their
    /// errors do not average out).
    private func accumulate(_ latest: AccelerationEstimate) {
        accelerationSum += latest.value
        standardErrorSum += latest.standardError
        accelerationCount += 1
    }
}
