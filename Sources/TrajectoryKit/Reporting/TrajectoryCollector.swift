import struct Foundation.UUID

/// Gathers the observations of a whole run into the trajectories of a `TrajectoryReport`:
/// for each uuid, its latest observation (which carries every point of its life).
///
/// - Complexity: memory grows with the number of trajectories, not with the number of frames.
public struct TrajectoryCollector: Sendable {
    private var latest: [UUID: TrajectoryObservation] = [:]

    public init() {}

    public mutating func add(_ observations: [TrajectoryObservation]) {
        for observation in observations {
            latest[observation.uuid] = observation
        }
    }

    public var count: Int { latest.count }

    /// The trajectories in order of their start time; those that start together in order of
    /// where they start, left to right, then bottom to top (y grows upwards, as in Vision's
    /// coordinates). Uuids are random, so ordering ties by them (only when the first points
    /// coincide too) would list the same video's trajectories in a different order on every run.
    public func trajectories(formattedBy formatter: ReportFormatter) -> [TrajectoryReport.Trajectory] {
        latest.values
            .sorted { Self.order($0) < Self.order($1) }
            .map(formatter.trajectory)
    }

    private static func order(_ observation: TrajectoryObservation) -> (Double, Double, Double, String) {
        let first = observation.points.first?.location
        return (observation.timeRange.start, first?.x ?? 0, first?.y ?? 0, observation.uuid.uuidString)
    }
}

/// Turns each analysed frame's observations into one JSON Lines record, remembering how many
/// points of each trajectory earlier lines already carried so that every point is written
/// exactly once.
public struct FrameReportBuilder: Sendable {
    private let formatter: ReportFormatter
    private var pointsAlreadyReported: [UUID: Int] = [:]

    public init(formatter: ReportFormatter) {
        self.formatter = formatter
    }

    /// The line for this frame, or nil when it has no observations (no line is written then).
    public mutating func report(
        frame: FrameStamp, observations: [TrajectoryObservation]
    ) -> FrameReport? {
        guard !observations.isEmpty else { return nil }
        let entries = observations.map { observation in
            let alreadyReported = pointsAlreadyReported[observation.uuid, default: 0]
            pointsAlreadyReported[observation.uuid] = observation.points.count
            return FrameReport.Observation(
                uuid: observation.uuid,
                timeRange: formatter.timeRange(observation.timeRange),
                newPoints: observation.points.dropFirst(alreadyReported).map(formatter.point),
                detectedPoints: observation.detectedPoints.map(formatter.xy),
                projectedPoints: observation.projectedPoints.map(formatter.xy),
                equationCoefficients: formatter.equation(observation.equationCoefficients),
                confidence: formatter.confidence(observation.confidence),
                movingAverageRadius: formatter.radius(observation.movingAverageRadius))
        }
        return FrameReport(frame: frame.index, time: ReportFormatter.round(frame.time, places: 6), observations: entries)
    }
}
