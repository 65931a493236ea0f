import struct Foundation.UUID

/// What one clip's report scored against its ground truth, with the detail that explains it.
public struct FlightClipScore: Sendable, Hashable, Codable {
    /// The clip's name (by default the report's `source.uri`).
    public var clip: String
    /// The ground truth's scene and seed.
    public var scene: String
    public var seed: UInt64
    public var counts: FlightCounts
    public var metrics: FlightMetrics
    /// One entry per ground-truth flight, in the truth's order.
    public var flights: [FlightOutcome]
    /// One entry per reported trajectory, in the report's order.
    public var trajectories: [TrajectoryOutcome]

    public init(
        clip: String, scene: String, seed: UInt64, counts: FlightCounts, flights: [FlightOutcome],
        trajectories: [TrajectoryOutcome]
    ) {
        self.clip = clip
        self.scene = scene
        self.seed = seed
        self.counts = counts
        self.metrics = counts.metrics
        self.flights = flights
        self.trajectories = trajectories
    }
}

/// What became of one ground-truth flight.
public struct FlightOutcome: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// Its true trajectories cover enough of its visible frames.
        case found
        /// Reportable, but not covered enough.
        case missed
        /// Too few visible frames for any detector to report it: left out of recall and coverage.
        case unreportable
    }

    /// The flight's id in the ground truth.
    public var id: Int
    public var status: Status
    /// The ball's radius and the match tolerance it gives, in pixels.
    public var radius: Double
    public var tolerance: Double
    @NullWhenAbsent public var firstFrame: Int?
    @NullWhenAbsent public var lastFrame: Int?
    public var visibleFrames: Int
    /// Visible frames covered by its true trajectories.
    public var coveredFrames: Int
    /// `coveredFrames / visibleFrames`.
    public var coverage: Double
    /// The uuids of the true trajectories assigned to it, in the order they start: more than one
    /// means the detector split the flight.
    public var trajectories: [UUID]
    /// Points of those trajectories within tolerance of the ball, and their distance from it in pixels.
    public var matchedPoints: Int
    @NullWhenAbsent public var meanError: Double?
    @NullWhenAbsent public var maxError: Double?

    public init(
        id: Int, status: Status, radius: Double, tolerance: Double, firstFrame: Int?, lastFrame: Int?,
        visibleFrames: Int, coveredFrames: Int, trajectories: [UUID], matchedPoints: Int,
        meanError: Double?, maxError: Double?
    ) {
        self.id = id
        self.status = status
        self.radius = radius
        self.tolerance = tolerance
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.visibleFrames = visibleFrames
        self.coveredFrames = coveredFrames
        self.coverage = Rate.fraction(coveredFrames, of: visibleFrames)
        self.trajectories = trajectories
        self.matchedPoints = matchedPoints
        self.meanError = meanError
        self.maxError = maxError
    }
}

/// How one reported trajectory was judged.
public struct TrajectoryOutcome: Sendable, Hashable, Codable {
    public var uuid: UUID
    /// At least the required fraction of its points match `flight`, and it is not a duplicate.
    public var isTrue: Bool
    /// For a trajectory that mostly repeats frames another (earlier) trajectory already matched
    /// on the same flight: that trajectory. A second uuid for one ball at the same time is a
    /// false report, not a second find.
    @NullWhenAbsent public var duplicateOf: UUID?
    /// How many points it reported, and over which frames.
    public var points: Int
    @NullWhenAbsent public var firstFrame: Int?
    @NullWhenAbsent public var lastFrame: Int?
    /// The flight it matched most points of; `nil` when no point was near any flight.
    @NullWhenAbsent public var flight: Int?
    /// Its points within tolerance of `flight`, and their distance from the ball in pixels.
    public var matchedPoints: Int
    @NullWhenAbsent public var meanError: Double?
    @NullWhenAbsent public var maxError: Double?
    /// For a false trajectory, the kinds of distractors moving during its frames (what it may
    /// have latched onto); empty for a true one.
    public var concurrentDistractors: [String]

    public init(
        uuid: UUID, isTrue: Bool, duplicateOf: UUID? = nil, points: Int, firstFrame: Int?, lastFrame: Int?,
        flight: Int?, matchedPoints: Int, meanError: Double?, maxError: Double?, concurrentDistractors: [String]
    ) {
        self.uuid = uuid
        self.isTrue = isTrue
        self.duplicateOf = duplicateOf
        self.points = points
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.flight = flight
        self.matchedPoints = matchedPoints
        self.meanError = meanError
        self.maxError = maxError
        self.concurrentDistractors = concurrentDistractors
    }
}

/// Flight-level counts of one or more clips. Unreportable flights are counted apart and are in
/// neither `flights` nor the frame counts.
public struct FlightCounts: ScoreCounts {
    /// Reportable flights, and those of them found.
    public var flights: Int
    public var foundFlights: Int
    public var unreportableFlights: Int
    /// Reported trajectories, split into true and false.
    public var trajectories: Int
    public var trueTrajectories: Int
    public var falseTrajectories: Int
    /// Distinct uuids assigned to found flights, summed over them.
    public var trajectoriesOnFoundFlights: Int
    /// Visible frames of reportable flights, and those covered by their true trajectories.
    public var visibleFrames: Int
    public var coveredFrames: Int
    /// Points of true trajectories within tolerance of their flight, the sum of their errors and
    /// the largest, in pixels.
    public var matchedPoints: Int
    public var pointErrorSum: Double
    public var maxPointError: Double

    public init(
        flights: Int, foundFlights: Int, unreportableFlights: Int, trajectories: Int, trueTrajectories: Int,
        trajectoriesOnFoundFlights: Int, visibleFrames: Int, coveredFrames: Int, matchedPoints: Int,
        pointErrorSum: Double, maxPointError: Double
    ) {
        self.flights = flights
        self.foundFlights = foundFlights
        self.unreportableFlights = unreportableFlights
        self.trajectories = trajectories
        self.trueTrajectories = trueTrajectories
        self.falseTrajectories = trajectories - trueTrajectories
        self.trajectoriesOnFoundFlights = trajectoriesOnFoundFlights
        self.visibleFrames = visibleFrames
        self.coveredFrames = coveredFrames
        self.matchedPoints = matchedPoints
        self.pointErrorSum = pointErrorSum
        self.maxPointError = maxPointError
    }

    public static let zero = FlightCounts(
        flights: 0, foundFlights: 0, unreportableFlights: 0, trajectories: 0, trueTrajectories: 0,
        trajectoriesOnFoundFlights: 0, visibleFrames: 0, coveredFrames: 0, matchedPoints: 0,
        pointErrorSum: 0, maxPointError: 0
    )

    public static func + (lhs: FlightCounts, rhs: FlightCounts) -> FlightCounts {
        FlightCounts(
            flights: lhs.flights + rhs.flights,
            foundFlights: lhs.foundFlights + rhs.foundFlights,
            unreportableFlights: lhs.unreportableFlights + rhs.unreportableFlights,
            trajectories: lhs.trajectories + rhs.trajectories,
            trueTrajectories: lhs.trueTrajectories + rhs.trueTrajectories,
            trajectoriesOnFoundFlights: lhs.trajectoriesOnFoundFlights + rhs.trajectoriesOnFoundFlights,
            visibleFrames: lhs.visibleFrames + rhs.visibleFrames,
            coveredFrames: lhs.coveredFrames + rhs.coveredFrames,
            matchedPoints: lhs.matchedPoints + rhs.matchedPoints,
            pointErrorSum: lhs.pointErrorSum + rhs.pointErrorSum,
            maxPointError: max(lhs.maxPointError, rhs.maxPointError)
        )
    }

    public var metrics: FlightMetrics { FlightMetrics(counts: self) }
}

/// The rates a `FlightCounts` gives.
///
/// Empty cases: with no reportable flight, recall and coverage are 1 (nothing was missed); with
/// no trajectory, precision is 1 (nothing reported was wrong). So no flights and no trajectories
/// is a perfect score, and trajectories where there is no flight give precision 0.
public struct FlightMetrics: Sendable, Hashable, Codable {
    /// Found flights ÷ reportable flights.
    public var recall: Double
    /// True trajectories ÷ trajectories.
    public var precision: Double
    /// Harmonic mean of precision and recall.
    public var f1: Double
    /// Covered ÷ visible frames of reportable flights: how much of each flight was reported.
    public var coverage: Double
    /// Distinct uuids per found flight (ideal 1); `nil` when no flight was found.
    @NullWhenAbsent public var fragmentation: Double?
    /// Mean and largest distance in pixels from the ball of the matched points of true trajectories;
    /// `nil` when there are none.
    @NullWhenAbsent public var meanPointError: Double?
    @NullWhenAbsent public var maxPointError: Double?

    public init(counts: FlightCounts) {
        recall = Rate.fraction(counts.foundFlights, of: counts.flights)
        precision = Rate.fraction(counts.trueTrajectories, of: counts.trajectories)
        f1 = Rate.f1(precision: precision, recall: recall)
        coverage = Rate.fraction(counts.coveredFrames, of: counts.visibleFrames)
        fragmentation = counts.foundFlights == 0
            ? nil : Double(counts.trajectoriesOnFoundFlights) / Double(counts.foundFlights)
        meanPointError = Rate.mean(counts.pointErrorSum, count: counts.matchedPoints)
        maxPointError = counts.matchedPoints == 0 ? nil : counts.maxPointError
    }
}
