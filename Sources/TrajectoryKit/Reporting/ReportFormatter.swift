/// Writes observations in a report's coordinate space, rounded so the JSON stays readable.
///
/// Positions keep 1e-6 of the frame (a thousandth of a pixel at 4K) when normalized and 1e-3 px
/// otherwise; times keep a microsecond. Equation coefficients are never rounded: they feed
/// further computation and span many orders of magnitude.
public struct ReportFormatter: Sendable, Hashable {
    public let coordinates: CoordinateSpace
    public let frameWidth: Int
    public let frameHeight: Int

    public init(coordinates: CoordinateSpace, frameWidth: Int, frameHeight: Int) {
        precondition(frameWidth > 0 && frameHeight > 0, "a frame needs a positive size")
        self.coordinates = coordinates
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
    }

    public func xy(_ point: NormalizedPoint) -> TrajectoryReport.XY {
        switch coordinates {
        case .normalized:
            return TrajectoryReport.XY(x: Self.round(point.x, places: 6), y: Self.round(point.y, places: 6))
        case .pixels:
            let pixel = point.pixels(width: frameWidth, height: frameHeight)
            return TrajectoryReport.XY(x: Self.round(pixel.x, places: 3), y: Self.round(pixel.y, places: 3))
        }
    }

    /// A radius given as a fraction of the frame width.
    public func radius(_ normalizedRadius: Double) -> Double {
        switch coordinates {
        case .normalized: return Self.round(normalizedRadius, places: 6)
        case .pixels: return Self.round(normalizedRadius * Double(frameWidth), places: 3)
        }
    }

    public func point(_ point: TrajectoryPoint) -> TrajectoryReport.Point {
        let location = xy(point.location)
        return TrajectoryReport.Point(
            frame: point.frame, time: Self.round(point.time, places: 6),
            x: location.x, y: location.y, radius: radius(point.radius))
    }

    public func timeRange(_ range: TimeRange) -> TimeRange {
        TimeRange(start: Self.round(range.start, places: 6), duration: Self.round(range.duration, places: 6))
    }

    /// y = a·x² + b·x + c rewritten for the report's coordinates. In pixels (x right, y down):
    /// with X = x·W and Y = (1 − y)·H, Y = −(H·a/W²)·X² − (H·b/W)·X + H·(1 − c).
    public func equation(_ coefficients: EquationCoefficients) -> EquationCoefficients {
        switch coordinates {
        case .normalized:
            return coefficients
        case .pixels:
            let width = Double(frameWidth), height = Double(frameHeight)
            return EquationCoefficients(
                a: -height * coefficients.a / (width * width),
                b: -height * coefficients.b / width,
                c: height * (1 - coefficients.c))
        }
    }

    public func confidence(_ value: Float) -> Double { Self.round(Double(value), places: 4) }

    /// The report's entry for a trajectory, from its latest observation.
    public func trajectory(_ observation: TrajectoryObservation) -> TrajectoryReport.Trajectory {
        TrajectoryReport.Trajectory(
            uuid: observation.uuid,
            timeRange: timeRange(observation.timeRange),
            points: observation.points.map(point),
            detectedPoints: observation.detectedPoints.map(xy),
            projectedPoints: observation.projectedPoints.map(xy),
            equationCoefficients: equation(observation.equationCoefficients),
            confidence: confidence(observation.confidence),
            movingAverageRadius: radius(observation.movingAverageRadius))
    }

    static func round(_ value: Double, places: Int) -> Double {
        guard value.isFinite else { return value }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
