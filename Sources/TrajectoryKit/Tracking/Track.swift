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

/// One candidate ball: its latest points for fitting, and, once confirmed, its whole life.
final class Track {
    private(set) var state = TrackState.tentative
    /// Assigned when the track is confirmed, so ids are spent only on reported trajectories.
    private(set) var uuid: UUID?
    /// Analysed frames in a row without a point.
    private(set) var missedFrames = 0
    /// Whether the track took a point in the frame being analysed.
    private(set) var gainedPoint = false

    /// The latest points, oldest first. Predictions and flight tests use the last
    /// `windowLength`; a tentative track keeps up to twice as many, so that what it followed
    /// before its latest window still counts against confirming it (a ball swung in a circle
    /// looks like a flight for a third of a turn, not for two thirds).
    private(set) var history: Deque<TrackSample>
    /// Every point of the trajectory, normalized as reported. While tentative it mirrors
    /// `history`; once confirmed it only grows.
    private(set) var points: [TrajectoryPoint] = []
    /// Sums of the accelerations, and of their standard errors, of every window accepted since
    /// confirmation, and how many there were.
    private var accelerationSum = PixelVector(x: 0, y: 0)
    private var standardErrorSum = PixelVector(x: 0, y: 0)
    private var accelerationCount = 0
    /// The latest free-flight assessment of the window, for the confidence.
    private(set) var latestAssessment: FlightAssessment?

    /// Vision's `trajectoryLength`: the points a window holds.
    let windowLength: Int
    /// The most points a tentative track keeps.
    var tentativeHistoryLength: Int { 2 * windowLength }

    init(first sample: TrackSample, point: TrajectoryPoint, windowLength: Int) {
        self.windowLength = windowLength
        self.history = Deque(minimumCapacity: 2 * windowLength + 1)
        history.append(sample)
        points.append(point)
        gainedPoint = true
    }

    var isConfirmed: Bool { state == .confirmed || state == .lost }
    /// The latest `windowLength` points (fewer while the track is young).
    var window: Deque<TrackSample>.SubSequence { history.suffix(windowLength) }
    var meanRadius: Double { window.reduce(0) { $0 + $1.radius } / Double(window.count) }

    /// The whole track's acceleration since confirmation (meaningless before).
    var trackAcceleration: AccelerationEstimate {
        let count = Double(max(accelerationCount, 1))
        return AccelerationEstimate(value: accelerationSum / count, standardError: standardErrorSum / count)
    }

    /// Clears the per-frame flag before a new frame is analysed.
    func beginFrame() { gainedPoint = false }

    /// Offers the track a detection. A tentative track always takes it. A confirmed one takes
    /// it only if its latest points, with this one, are still one free flight with the whole
    /// track's acceleration; otherwise (a bounce, a catch, a stray blob in the gate) it refuses,
    /// and the caller treats the frame as a miss for this track.
    func offer(_ sample: TrackSample, point: TrajectoryPoint, test: FreeFlightTest) -> Bool {
        var sample = sample
        sample.missesBefore = missedFrames
        history.append(sample)
        if isConfirmed {
            let assessment = test.assess(window, travelOver: windowLength)
            guard assessment.isFreeFlight, test.continues(trackAcceleration, with: assessment.acceleration)
            else {
                history.removeLast()
                return false
            }
            latestAssessment = assessment
            accumulate(assessment.acceleration)
            state = .confirmed
        }
        points.append(point)
        trimHistory()
        missedFrames = 0
        gainedPoint = true
        return true
    }

    /// Records an analysed frame in which the track found no point.
    func miss() {
        missedFrames += 1
        if state == .confirmed { state = .lost }
    }

    /// For a tentative track with at least a window of points: confirms it, taking an id from
    /// `makeID`, when all the points it holds (up to two windows) are one free flight of a ball
    /// moving on its own (`CommonMotionTest`) and detected like one (`DetectionEvidence`),
    /// allowing one point in ten to be a stray detection (a fragment of the ball, a blob beside
    /// it) that is then dropped. Otherwise it
    /// keeps gathering points, dropping the oldest beyond two windows, so a flight that
    /// followed some other motion is confirmed once that motion has left its history.
    ///
    /// Returns whether the track was confirmed.
    func confirmIfFreeFlight(
        test: FreeFlightTest, motion: CommonMotionTest, evidence: DetectionEvidence, makeID: () -> UUID
    ) -> Bool {
        guard state == .tentative, history.count >= windowLength,
              let assessment = assessWithoutStrays(test: test, motion: motion, evidence: evidence)
        else { return false }
        strays.sort()
        for stray in strays.reversed() {
            history.remove(at: stray)
            points.remove(at: stray)
        }
        latestAssessment = assessment
        accumulate(assessment.acceleration)
        uuid = makeID()
        state = .confirmed
        trimHistory()
        return true
    }

    /// Indices into `history` of the points the latest `assessWithoutStrays` call set aside;
    /// kept between calls so that assessing does not allocate.
    private var strays: [Int] = []

    /// The points of `history` without the strays, indexed by their index in `history`.
    private var samplesWithoutStrays: LazyMapCollection<LazyFilterCollection<Range<Int>>, TrackSample> {
        history.indices.lazy.filter { !self.strays.contains($0) }.map { self.history[$0] }
    }

    /// Assesses the whole history, setting aside up to one point in ten as strays (the worst
    /// fitting first) while the fit is poor. Returns the assessment when the rest is a free
    /// flight of a ball moving on its own and detected like one, with the strays left in
    /// `strays`.
    private func assessWithoutStrays(
        test: FreeFlightTest, motion: CommonMotionTest, evidence: DetectionEvidence
    ) -> FlightAssessment? {
        strays.removeAll(keepingCapacity: true)
        var assessment = test.assess(history, travelOver: windowLength)
        while assessment.verdict == .poorFit, strays.count < history.count / 10 {
            strays.append(test.worstFitting(samplesWithoutStrays))
            assessment = test.assess(samplesWithoutStrays, travelOver: windowLength)
        }
        guard assessment.isFreeFlight, motion.movesOnItsOwn(samplesWithoutStrays),
              evidence.supportsConfirmation(samplesWithoutStrays, isRolling: assessment.isRolling)
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
    func prediction(at time: Double, test: FreeFlightTest, limits: PixelMotionLimits) -> TrackPrediction {
        let radius = meanRadius
        let window = self.window
        let latest = window[window.index(before: window.endIndex)]
        let interval = time - latest.time
        guard let fit = KinematicFit(samples: window.lazy.map(\.timedPosition)) else {
            let noise = test.centroidNoise(radius: radius)
            return TrackPrediction(
                isConfirmed: isConfirmed, center: latest.center,
                gateRadius: limits.maximumSpeed * interval + test.criteria.significance * noise * 2.squareRoot(),
                radius: radius, speed: nil, interval: interval)
        }
        return TrackPrediction(
            isConfirmed: isConfirmed, center: fit.position(at: time),
            gateRadius: gateRadius(fit: fit, window: window, at: time, test: test, limits: limits),
            radius: radius, speed: fit.velocity(at: latest.time).length, interval: interval)
    }

    /// How far from `fit`'s position at `time` a detection of this ball may be:
    /// `significance` standard deviations of the prediction's noise, plus what an acceleration
    /// the fit does not model could bend the path, ½·a·|(t − t_first)(t − t_last)| over the
    /// window's span (the error of interpolating a parabola through its end points).
    ///
    /// For a confirmed track that acceleration is the sideways part the allowed tilt of gravity
    /// adds, so the gate is tight and a bounce falls outside it. A tentative track has not been
    /// shown to be a flight, so it allows the largest acceleration a ball may have (`limits`):
    /// gating it with the flight model would cut any other motion (a circle, a swing) into
    /// fresh short tracks, each of which could pass for a flight over one window.
    private func gateRadius(
        fit: KinematicFit, window: Deque<TrackSample>.SubSequence, at time: Double,
        test: FreeFlightTest, limits: PixelMotionLimits
    ) -> Double {
        let noise = test.centroidNoise(radius: meanRadius)
        let first = window[window.startIndex].time
        let last = window[window.index(before: window.endIndex)].time
        let unmodelledAcceleration = isConfirmed
            ? tan(test.criteria.maximumTilt) * abs(fit.acceleration.y)
            : limits.maximumAcceleration
        let bending = 0.5 * unmodelledAcceleration * abs((time - first) * (time - last))
        return test.criteria.significance * fit.predictionStandardDeviation(at: time, centroidNoise: noise) + bending
    }

    /// The observation Vision would report now: the latest `windowLength` points, the
    /// y = a·x² + b·x + c fit over them, the fit at the x of the last five, and the whole life.
    func observation() -> TrajectoryObservation? {
        guard let uuid, let first = points.first, let latest = points.last else { return nil }
        let detected = points.suffix(windowLength)
        let detectedPoints = detected.map(\.location)
        guard let fit = ParabolaFit(points: detectedPoints) else { return nil }
        let projectedPoints = detectedPoints.suffix(5).map {
            NormalizedPoint(x: $0.x, y: fit.coefficients.evaluate(at: $0.x))
        }
        return TrajectoryObservation(
            uuid: uuid,
            timeRange: TimeRange(start: first.time, duration: latest.time - first.time),
            detectedPoints: detectedPoints,
            projectedPoints: Array(projectedPoints),
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
