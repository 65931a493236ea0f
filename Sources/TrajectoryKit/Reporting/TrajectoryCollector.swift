import struct Foundation.UUID

/// Gathers the observations of a whole run into the trajectories of a `TrajectoryReport`:
/// for each uuid, its latest observation (which carries every point of its life).
///
/// - Complexity: memory grows with the number of trajectories, not with the number of frames.
public struct TrajectoryCollector: Sendable {
    /// Each trajectory's latest observation, and how many trajectories were seen before it.
    private var latest: [UUID: (firstSeen: Int, observation: TrajectoryObservation)] = [:]

    public init() {}

    public mutating func add(_ observations: [TrajectoryObservation]) {
        for observation in observations {
            let firstSeen = latest[observation.uuid]?.firstSeen ?? latest.count
            latest[observation.uuid] = (firstSeen, observation)
        }
    }

    public var count: Int { latest.count }

    /// The trajectories in order of their start time; those that start together in order of
    /// where they start, left to right, then bottom to top (y grows upwards, as in Vision's
    /// coordinates), and those that start at the same point too in the order they were first
    /// reported. Uuids are random, so ordering ties by them would list the same video's
    /// trajectories in a different order on every run.
    public func trajectories(formattedBy formatter: ReportFormatter) -> [TrajectoryReport.Trajectory] {
        latest.values
            .sorted { Self.order($0) < Self.order($1) }
            .map { formatter.trajectory($0.observation) }
    }

    private static func order(_ entry: (firstSeen: Int, observation: TrajectoryObservation)) -> (Double, Double, Double, Int) {
        let first = entry.observation.points.first?.location
        return (entry.observation.timeRange.start, first?.x ?? 0, first?.y ?? 0, entry.firstSeen)
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
