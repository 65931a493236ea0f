import Foundation

/// One detection kept by a track, in seconds and in full-frame pixels (top-left origin) of the
/// scene: where it shows in the frame less the camera's offset (see
/// `TrajectoryTracker.update(blobs:frame:frameWidth:frameHeight:cameraOffset:)`).
struct TrackSample: Sendable, Hashable {
    var frame: Int
    var time: Double
    var center: PixelPoint
    var radius: Double
    /// Analysed frames the track went without a point just before this one.
    var missesBefore: Int
    /// Whether the blobs around this point moved with it (see `CommonMotionTest`).
    var neighbourMotion = NeighbourMotion.unknown
    /// How the detection looked: see `DetectionEvidence`.
    var detection = DetectionQuality()
    /// Standard deviation of this detection's centre, pixels, when it is known to be larger
    /// than the ordinary centroid noise (see `FreeFlightTest.centroidNoise(of:ballRadius:)`);
    /// 0 when it is not.
    var centroidNoise = 0.0

    /// This sample's weight in a least-squares fit whose samples ordinarily carry noise
    /// `referenceNoise`: 1, or less for a centre known to be noisier.
    func weight(referenceNoise: Double) -> Double {
        guard centroidNoise > referenceNoise else { return 1 }
        let ratio = referenceNoise / centroidNoise
        return ratio * ratio
    }
}

/// An acceleration with the standard error of each component.
struct AccelerationEstimate: Sendable, Hashable {
    var value: PixelVector
    var standardError: PixelVector
}

/// What the free-flight test found about a run of points.
struct FlightAssessment: Sendable, Hashable {
    enum Verdict: Sendable, Hashable {
        case freeFlight
        /// One constant acceleration leaves residuals well beyond the centroid noise.
        case poorFit
        /// The acceleration is neither (about) zero nor gravity-like: down the frame within the
        /// tilt allowed and strong enough for the ball's size.
        case notFalling
        /// The first and second halves of the points accelerate differently.
        case accelerationChanges
        /// The points barely move.
        case tooLittleTravel
        /// The radius varies too much to be one ball.
        case radiusVaries
    }

    var verdict: Verdict
    /// Whether the acceleration is (statistically) zero: a ball rolling in a straight line,
    /// or anything else moving at constant velocity, rather than one falling.
    var isRolling: Bool
    /// Constant-acceleration fit (x and y quadratic in time) over all the points.
    var acceleration: AccelerationEstimate
    /// Root mean square residual per degree of freedom, in units of `centroidNoise`.
    var normalizedResidual: Double
    /// The centroid noise assumed, pixels.
    var centroidNoise: Double

    var isFreeFlight: Bool { verdict == .freeFlight }
}

/// Decides whether points (at least five, at distinct times) are one ball in free flight: x and
/// y fit by one constant acceleration in time with residuals at the level of the centroid noise,
/// an acceleration either (statistically) zero — a ball rolling in a straight line — or pointing
/// down the frame within a small tilt and strong enough for the ball's apparent size, and the
/// same in the first and the second half of the points; to confirm a track, also a real
/// displacement and a steady radius (see `Purpose`).
struct FreeFlightTest: Sendable {
    let criteria: TrajectoryTracker.FlightCriteria

    /// The centroid noise assumed for a ball of `radius` pixels.
    func centroidNoise(radius: Double) -> Double {
        max(criteria.centroidNoiseFloor, criteria.centroidNoisePerRadius * radius)
    }

    /// What points are assessed for.
    enum Purpose {
        /// Confirming a track: besides being one free flight, the points must travel (measured
        /// over the last `travelOver` of them, so that holding more points does not make a slow
        /// blob look like it travels further) and keep a steady radius.
        case confirming(travelOver: Int)
        /// Keeping a confirmed track: one free flight is enough. Travel and a steady radius tell
        /// a ball from a blinking light or a blob that keeps changing, but a flight already
        /// confirmed slows at its apex (at 60 frames a second a lob moves less than two of its
        /// radii in ten frames), and a faint ball is often seen only in part.
        case continuing
    }

    /// Assesses `samples` for `purpose` and, when the fit is poor and `findingWorst`, finds the
    /// sample farthest from it: the one to set aside first as a stray. The fit is the one the
    /// assessment made, so it is not made twice (a busy scene's clutter tracks fit poorly, and
    /// are assessed, with strays set aside, at every frame).
    ///
    /// - Complexity: O(n) without allocation.
    func assess<Samples: BidirectionalCollection>(
        _ samples: Samples, for purpose: Purpose, findingWorst: Bool
    ) -> (assessment: FlightAssessment, worst: Samples.Index?) where Samples.Element == TrackSample {
        let (assessment, whole) = assessKeepingFit(samples, for: purpose)
        guard findingWorst, assessment.verdict == .poorFit else { return (assessment, nil) }
        let worst = samples.indices.max {
            whole.squaredResidual(of: samples[$0]) < whole.squaredResidual(of: samples[$1])
        }
        return (assessment, worst)
    }

    /// `assess(_:for:findingWorst:)`'s assessment, and the constant-acceleration fit of all the
    /// samples it made.
    private func assessKeepingFit<Samples: BidirectionalCollection>(
        _ samples: Samples, for purpose: Purpose
    ) -> (assessment: FlightAssessment, whole: ConstantAccelerationFit) where Samples.Element == TrackSample {
        precondition(samples.count >= 5, "a flight test needs at least five points")
        let meanRadius = samples.reduce(0) { $0 + $1.radius } / Double(samples.count)
        let noise = centroidNoise(radius: meanRadius)
        let whole = ConstantAccelerationFit(samples, noise: noise)
        let degreesOfFreedom = Double(2 * samples.count - 6)
        let residual = (whole.residualSumOfSquares / degreesOfFreedom).squareRoot() / noise

        let isRolling = isZero(whole.acceleration)
        func verdict() -> FlightAssessment.Verdict {
            if residual > criteria.maximumNormalizedResidual { return .poorFit }
            if !isRolling, !isFalling(whole.acceleration, radius: meanRadius) { return .notFalling }
            let half = (samples.count + 1) / 2
            let early = ConstantAccelerationFit(samples.prefix(half), noise: noise).acceleration
            let late = ConstantAccelerationFit(samples.suffix(half), noise: noise).acceleration
            if !agree(early, late, tolerance: criteria.accelerationTolerance * whole.acceleration.value.length) {
                return .accelerationChanges
            }
            guard case .confirming(let travelCount) = purpose else { return .freeFlight }
            if travel(of: samples.suffix(travelCount)) < max(criteria.minimumTravelInRadii * meanRadius, 2 * criteria.significance * noise) {
                return .tooLittleTravel
            }
            if !hasSteadyRadius(samples) { return .radiusVaries }
            return .freeFlight
        }
        let assessment = FlightAssessment(
            verdict: verdict(), isRolling: isRolling, acceleration: whole.acceleration, normalizedResidual: residual,
            centroidNoise: noise)
        return (assessment, whole)
    }

    /// Whether a track's latest points, already found to be a free flight, keep the
    /// acceleration of the whole track.
    func continues(_ track: AccelerationEstimate, with latest: AccelerationEstimate) -> Bool {
        agree(track, latest, tolerance: criteria.trackAccelerationTolerance * track.value.length)
    }

    /// Whether the acceleration is zero within `significance` standard errors on both axes.
    private func isZero(_ acceleration: AccelerationEstimate) -> Bool {
        let (a, error, z) = (acceleration.value, acceleration.standardError, criteria.significance)
        return abs(a.x) <= z * error.x && abs(a.y) <= z * error.y
    }

    /// Whether the acceleration points down the frame within the tilt allowed and is strong
    /// enough for a ball of `radius` pixels (within noise).
    private func isFalling(_ acceleration: AccelerationEstimate, radius: Double) -> Bool {
        let (a, error, z) = (acceleration.value, acceleration.standardError, criteria.significance)
        return a.y > 0
            && abs(a.x) <= tan(criteria.maximumTilt) * a.y + z * error.x
            && a.y + z * error.y >= criteria.minimumFallAccelerationPerRadius * radius
    }

    /// Whether two estimates differ, on each axis, by no more than noise plus `tolerance`.
    private func agree(_ first: AccelerationEstimate, _ second: AccelerationEstimate, tolerance: Double) -> Bool {
        func axis(_ a: Double, _ b: Double, _ errorA: Double, _ errorB: Double) -> Bool {
            abs(a - b) <= criteria.significance * (errorA * errorA + errorB * errorB).squareRoot() + tolerance
        }
        return axis(first.value.x, second.value.x, first.standardError.x, second.standardError.x)
            && axis(first.value.y, second.value.y, first.standardError.y, second.standardError.y)
    }

    /// Diagonal of the points' bounding box, pixels.
    private func travel(of samples: some Collection<TrackSample>) -> Double {
        var (minX, minY) = (Double.infinity, Double.infinity)
        var (maxX, maxY) = (-Double.infinity, -Double.infinity)
        for sample in samples {
            minX = min(minX, sample.center.x)
            maxX = max(maxX, sample.center.x)
            minY = min(minY, sample.center.y)
            maxY = max(maxY, sample.center.y)
        }
        return PixelVector(x: maxX - minX, y: maxY - minY).length
    }

    /// At least 80 % of the radii lie within √ratio of the mean (either way): one detection
    /// merged with a hand does not spoil a flight, a blob that keeps changing size does.
    /// Detections already known to be only part of the ball, or merged with something
    /// (`TrackSample.centroidNoise`), do not count: their size is not the ball's.
    private func hasSteadyRadius(_ samples: some Collection<TrackSample>) -> Bool {
        let whole = samples.lazy.filter { $0.centroidNoise == 0 }
        let count = whole.count
        guard count > 0 else { return true }
        let mean = whole.reduce(0) { $0 + $1.radius } / Double(count)
        let factor = criteria.maximumRadiusRatio.squareRoot()
        let steady = whole.count { $0.radius <= mean * factor && $0.radius >= mean / factor }
        return Double(steady) >= 0.8 * Double(count)
    }
}

/// x and y each quadratic in time: the general constant-acceleration model, used to measure
/// the acceleration's direction (the tracker's predictions use `KinematicFit`). Samples known
/// to be noisier than `noise` weigh less (`TrackSample.weight(referenceNoise:)`).
private struct ConstantAccelerationFit {
    let acceleration: AccelerationEstimate
    let residualSumOfSquares: Double
    private let x: OrthogonalPolynomialFit
    private let y: OrthogonalPolynomialFit

    init(_ samples: some Collection<TrackSample>, noise: Double) {
        // Distinct times are guaranteed by the tracker (one point per analysed frame).
        x = OrthogonalPolynomialFit(
            samples, maximumDegree: 2, abscissa: \.time, ordinate: \.center.x,
            weight: { $0.weight(referenceNoise: noise) })!
        y = OrthogonalPolynomialFit(
            samples, maximumDegree: 2, abscissa: \.time, ordinate: \.center.y,
            weight: { $0.weight(referenceNoise: noise) })!
        acceleration = AccelerationEstimate(
            value: PixelVector(x: x.curvature, y: y.curvature),
            standardError: PixelVector(
                x: x.curvatureStandardError(noise: noise), y: y.curvatureStandardError(noise: noise)))
        residualSumOfSquares = x.residualSumOfSquares + y.residualSumOfSquares
    }

    func squaredResidual(of sample: TrackSample) -> Double {
        let dx = sample.center.x - x.value(at: sample.time)
        let dy = sample.center.y - y.value(at: sample.time)
        return dx * dx + dy * dy
    }
}
