/// How strictly `FlightScorer` judges a report against ground truth.
///
/// The defaults, and why:
/// - Tolerance `max(3 px, 1.5 × radius)`: a detector finds the centroid of what moved, which for a
///   motion-blurred or half-lit ball can sit anywhere on the ball's disc; one and a half radii
///   accept that and nothing farther away. The 3 px floor keeps tiny balls (radius 1–2 px) from
///   demanding sub-pixel agreement.
/// - A trajectory is true when at least half of its points match one flight: it mostly followed
///   the ball, even if it started on something else or went past a bounce.
/// - A flight is found when its true trajectories cover at least half of its visible frames: a
///   tracker that confirms late or lets go at a bounce still found the flight, one that saw it
///   for a moment did not. The coverage column shows the rest.
/// - Flights with fewer visible frames than a detector needs before it may report anything
///   (`trajectoryLength` analysed frames, as Vision) are left out of recall and coverage: no
///   correct detector reports them. They are still listed, as `unreportable`.
public struct FlightScoringOptions: Sendable, Hashable, Codable {
    /// The smallest match tolerance, in pixels.
    public let minimumTolerance: Double
    /// The match tolerance as a multiple of the ball's radius, when that is larger.
    public let toleranceRadiusMultiple: Double
    /// The fraction of its points a trajectory must match on one flight to be a true trajectory.
    public let minimumMatchedFraction: Double
    /// The fraction of a flight's visible frames its true trajectories must cover for it to be found.
    public let minimumCoverage: Double
    /// Flights with fewer visible frames are unreportable. `nil`: work it out from the report's
    /// request, `(trajectoryLength − 1) × frames per analysis step + 1`.
    @NullWhenAbsent public private(set) var minimumReportableFrames: Int?

    /// The defaults described above.
    public static let standard = try! FlightScoringOptions()

    /// - Throws: `EvaluationError.invalidOption` for a value outside its range.
    public init(
        minimumTolerance: Double = 3, toleranceRadiusMultiple: Double = 1.5, minimumMatchedFraction: Double = 0.5,
        minimumCoverage: Double = 0.5, minimumReportableFrames: Int? = nil
    ) throws(EvaluationError) {
        guard minimumTolerance.isFinite, minimumTolerance >= 0 else {
            throw .invalidOption(name: "minimumTolerance", problem: "must be 0 or more pixels, got \(minimumTolerance)")
        }
        guard toleranceRadiusMultiple.isFinite, toleranceRadiusMultiple >= 0 else {
            throw .invalidOption(name: "toleranceRadiusMultiple", problem: "must be 0 or more, got \(toleranceRadiusMultiple)")
        }
        guard minimumTolerance > 0 || toleranceRadiusMultiple > 0 else {
            throw .invalidOption(name: "minimumTolerance", problem: "and toleranceRadiusMultiple cannot both be 0")
        }
        for (name, fraction) in [("minimumMatchedFraction", minimumMatchedFraction), ("minimumCoverage", minimumCoverage)] {
            guard fraction > 0, fraction <= 1 else {
                throw .invalidOption(name: name, problem: "must be in (0, 1], got \(fraction)")
            }
        }
        if let minimumReportableFrames, minimumReportableFrames < 1 {
            throw .invalidOption(name: "minimumReportableFrames", problem: "must be at least 1, got \(minimumReportableFrames)")
        }
        self.minimumTolerance = minimumTolerance
        self.toleranceRadiusMultiple = toleranceRadiusMultiple
        self.minimumMatchedFraction = minimumMatchedFraction
        self.minimumCoverage = minimumCoverage
        self.minimumReportableFrames = minimumReportableFrames
    }

    /// How far, in pixels, a reported point may be from the centre of a ball of `radius` pixels.
    public func tolerance(forRadius radius: Double) -> Double {
        max(minimumTolerance, toleranceRadiusMultiple * radius)
    }
}
