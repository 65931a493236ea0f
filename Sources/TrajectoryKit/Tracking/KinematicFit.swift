/// Where a ball was at one presentation time: the input of the fits in time.
public struct TimedPosition: Sendable, Hashable {
    /// Presentation time, seconds.
    public var time: Double
    /// Centre of the ball, full-frame pixels, top-left origin (y down).
    public var position: PixelPoint

    public init(time: Double, position: PixelPoint) {
        self.time = time
        self.position = position
    }
}

/// A velocity or an acceleration in the image plane: pixels per second (or per second squared),
/// y down.
public struct PixelVector: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var length: Double { (x * x + y * y).squareRoot() }

    public static func + (left: PixelVector, right: PixelVector) -> PixelVector {
        PixelVector(x: left.x + right.x, y: left.y + right.y)
    }

    public static func += (left: inout PixelVector, right: PixelVector) { left = left + right }

    public static func / (vector: PixelVector, divisor: Double) -> PixelVector {
        PixelVector(x: vector.x / divisor, y: vector.y / divisor)
    }
}

/// A ball's motion fitted in time, the model the tracker predicts with: x linear and y quadratic
/// in time (free flight under gravity, which points down the frame), in pixels and seconds.
///
/// Fitting in time rather than in frame counts keeps the model right when frames are dropped or
/// analysed at a spacing. With two samples y is linear too; with one there is no fit.
public struct KinematicFit: Sendable {
    private let horizontal: OrthogonalPolynomialFit
    private let vertical: OrthogonalPolynomialFit

    /// Fits the samples (at least two, at distinct times). Returns nil otherwise, or when a
    /// value is not finite.
    ///
    /// - Complexity: O(n), no allocation.
    public init?(samples: some Collection<TimedPosition>) {
        self.init(samples, time: \.time, position: \.position) { _ in 1 }
    }

    /// Fits a track's samples (at least two, at distinct times), each weighted by how much
    /// noisier its centre is than `referenceNoise` (see `TrackSample.centroidNoise`), so that a
    /// detection known to be off the ball's centre barely sways the fit. Prediction spreads are
    /// then given for `referenceNoise`.
    init?(samples: some Collection<TrackSample>, referenceNoise: Double) {
        self.init(samples, time: \.time, position: \.center) { $0.weight(referenceNoise: referenceNoise) }
    }

    private init?<Samples: Collection>(
        _ samples: Samples, time: (Samples.Element) -> Double, position: (Samples.Element) -> PixelPoint,
        weight: (Samples.Element) -> Double
    ) {
        guard samples.count >= 2,
              let horizontal = OrthogonalPolynomialFit(
                  samples, maximumDegree: 1, abscissa: time, ordinate: { position($0).x }, weight: weight),
              let vertical = OrthogonalPolynomialFit(
                  samples, maximumDegree: 2, abscissa: time, ordinate: { position($0).y }, weight: weight),
              horizontal.degree == 1
        else { return nil }
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// Number of samples fitted.
    public var sampleCount: Int { horizontal.count }

    /// The fitted position at `time` (an interpolation inside the samples' span, a prediction
    /// outside it).
    public func position(at time: Double) -> PixelPoint {
        PixelPoint(x: horizontal.value(at: time), y: vertical.value(at: time))
    }

    /// The fitted velocity at `time`, pixels per second.
    public func velocity(at time: Double) -> PixelVector {
        PixelVector(x: horizontal.slope(at: time), y: vertical.slope(at: time))
    }

    /// The fitted acceleration, pixels per second squared: vertical only by construction
    /// (positive = down the frame), 0 with fewer than three samples.
    public var acceleration: PixelVector { PixelVector(x: 0, y: vertical.curvature) }

    /// Standard deviation, in pixels along each axis, of the distance between the fitted
    /// position at `time` and a new detection there, when detections carry independent
    /// centroid noise of standard deviation `centroidNoise` pixels. It grows with the distance
    /// of `time` from the samples and shrinks with their number.
    public func predictionStandardDeviation(at time: Double, centroidNoise: Double) -> Double {
        predictionStandardDeviation(at: time, centroidNoise: centroidNoise, detectionNoise: centroidNoise)
    }

    /// As `predictionStandardDeviation(at:centroidNoise:)`, for a new detection whose centre
    /// carries noise `detectionNoise` rather than the samples' `centroidNoise`.
    func predictionStandardDeviation(at time: Double, centroidNoise: Double, detectionNoise: Double) -> Double {
        let leverage = max(horizontal.leverage(at: time), vertical.leverage(at: time))
        return (centroidNoise * centroidNoise * leverage + detectionNoise * detectionNoise).squareRoot()
    }

    /// Root mean square distance of the samples from the fit, pixels.
    public var residualRootMeanSquare: Double {
        ((horizontal.residualSumOfSquares + vertical.residualSumOfSquares) / Double(sampleCount)).squareRoot()
    }
}
