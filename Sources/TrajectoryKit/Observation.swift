import struct Foundation.UUID

/// A span of presentation time in seconds, as `CMTimeRange` is on Apple platforms.
public struct TimeRange: Sendable, Hashable, Codable {
    public var start: Double
    public var duration: Double

    public init(start: Double, duration: Double) {
        self.start = start
        self.duration = duration
    }

    public var end: Double { start + duration }
}

/// The coefficients of y = a·x² + b·x + c in normalized coordinates (bottom-left origin).
public struct EquationCoefficients: Sendable, Hashable, Codable {
    public var a: Double
    public var b: Double
    public var c: Double

    public init(a: Double, b: Double, c: Double) {
        self.a = a
        self.b = b
        self.c = c
    }

    /// The equation's y at `x`.
    public func evaluate(at x: Double) -> Double { (a * x + b) * x + c }

    /// As Vision hands them out (`simd_float3`).
    public var simd: SIMD3<Float> { SIMD3(Float(a), Float(b), Float(c)) }
}

/// One detection of the ball over a trajectory's life.
public struct TrajectoryPoint: Sendable, Hashable, Codable {
    /// 0-based index of the decoded frame in presentation order.
    public var frame: Int
    /// Presentation time of that frame, in seconds.
    public var time: Double
    /// Where the ball's centre was, normalized, bottom-left origin.
    public var location: NormalizedPoint
    /// The ball's radius in that frame, divided by the frame width.
    public var radius: Double

    public init(frame: Int, time: Double, location: NormalizedPoint, radius: Double) {
        self.frame = frame
        self.time = time
        self.location = location
        self.radius = radius
    }
}

/// What `DetectTrajectoriesRequest` reports about one ball in flight, after the latest frame:
/// the counterpart of Vision's `VNTrajectoryObservation`.
public struct TrajectoryObservation: Sendable, Hashable, Identifiable {
    /// The same for every observation of one trajectory; a bounce or a re-entry starts a new one.
    public var uuid: UUID
    /// From the first point's time to the latest point's time (presentation timestamps).
    public var timeRange: TimeRange
    /// The latest points, at most `trajectoryLength` of them, oldest first.
    public var detectedPoints: [NormalizedPoint]
    /// `equationCoefficients` evaluated at the x of the last five detected points.
    public var projectedPoints: [NormalizedPoint]
    /// Least-squares fit of y = a·x² + b·x + c over `detectedPoints`.
    public var equationCoefficients: EquationCoefficients
    /// How much the points look like one ball in free flight, in [0, 1].
    public var confidence: Float
    /// Moving average of the ball's radius, divided by the frame width.
    public var movingAverageRadius: Double
    /// Every point since the trajectory began, with frame index, time and radius
    /// (not in Vision: what users otherwise rebuild from successive observations).
    public var points: [TrajectoryPoint]

    public var id: UUID { uuid }

    public init(
        uuid: UUID, timeRange: TimeRange, detectedPoints: [NormalizedPoint],
        projectedPoints: [NormalizedPoint], equationCoefficients: EquationCoefficients,
        confidence: Float, movingAverageRadius: Double, points: [TrajectoryPoint]
    ) {
        self.uuid = uuid
        self.timeRange = timeRange
        self.detectedPoints = detectedPoints
        self.projectedPoints = projectedPoints
        self.equationCoefficients = equationCoefficients
        self.confidence = confidence
        self.movingAverageRadius = movingAverageRadius
        self.points = points
    }
}
