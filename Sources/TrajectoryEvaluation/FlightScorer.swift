import struct Foundation.UUID
import TrajectoryKit

/// Judges a detector's report against a clip's ground truth, flight by flight.
///
/// 1. Every reported point is put in pixels (top-left origin) as the report's `coordinates` say.
/// 2. A point *matches* a flight when the flight's ball, in the same frame, is within the
///    flight's tolerance of it (hidden frames included: the ball really is there).
/// 3. Each trajectory is assigned to the flight it matches most points of (ties: the smaller
///    summed error, then the flight listed first). It is *true* when at least
///    `minimumMatchedFraction` of its points match that flight, otherwise *false*.
/// 4. A true trajectory most of whose matched frames an earlier-starting true trajectory of the
///    same flight already matched is a *duplicate*: two uuids for one ball at once double-count
///    flights downstream, so the later one counts as false. Of two that start in the same frame
///    the one with more matched points is the original, whatever order the report lists them in.
/// 5. A trajectory *covers* the frames of its matched points; when the request skipped frames
///    (`frameAnalysisSpacing`), also the frames between two matched points at most one analysis
///    step apart. A reportable flight is *found* when its true trajectories together cover at
///    least `minimumCoverage` of its visible frames.
///
/// See `FlightScoringOptions` for the defaults and why, and `FlightMetrics` for the rates.
public struct FlightScorer: Sendable {
    public let options: FlightScoringOptions

    public init(options: FlightScoringOptions = .standard) {
        self.options = options
    }

    /// Scores one clip.
    /// - Parameter clip: how to name the clip in results and errors; the report's `source.uri` if nil.
    /// - Throws: `EvaluationError` when the two documents do not describe the same frames or
    ///   cannot be scored (a non-positive frame size, a flight with frames out of order, two
    ///   flights with one id).
    public func score(
        _ report: TrajectoryReport, against truth: GroundTruth, clip: String? = nil
    ) throws(EvaluationError) -> FlightClipScore {
        let clipName = clip ?? report.source.uri
        guard report.source.width == truth.width, report.source.height == truth.height else {
            throw .frameSizeMismatch(
                report: clipName, reportWidth: report.source.width, reportHeight: report.source.height,
                truthWidth: truth.width, truthHeight: truth.height)
        }
        let trajectories = try report.pixelTrajectories(name: clipName)
        let flights = try IndexedFlight.index(truth, options: options, name: "\(clipName) ground truth")

        let judgements = Self.markingDuplicates(trajectories.map { judge($0, against: flights) })
        let step = report.framesPerAnalysisStep
        let minimumFrames = options.minimumReportableFrames ?? report.minimumReportableFrames(step: step)
        let flightOutcomes = flights.map { flight in
            outcome(of: flight, judgements: judgements.filter { $0.isTrue && $0.flightID == flight.id },
                    minimumFrames: minimumFrames, framesPerStep: step)
        }
        let trajectoryOutcomes = judgements.map { $0.outcome(distractors: truth.distractors) }
        return FlightClipScore(
            clip: clipName, scene: truth.scene, seed: truth.seed,
            counts: Self.counts(flights: flightOutcomes, judgements: judgements),
            flights: flightOutcomes, trajectories: trajectoryOutcomes)
    }

    /// Assigns a trajectory to the flight it matches best and decides whether it is true.
    private func judge(_ trajectory: PixelTrajectory, against flights: [IndexedFlight]) -> TrajectoryJudgement {
        var best: [PointMatch] = []
        var bestFlight: IndexedFlight?
        for flight in flights {
            let matches = flight.matches(of: trajectory.points)
            if matches.count > best.count
                || (matches.count == best.count && !matches.isEmpty && matches.errorSum < best.errorSum) {
                best = matches
                bestFlight = flight
            }
        }
        let isTrue = !trajectory.points.isEmpty
            && Double(best.count) >= options.minimumMatchedFraction * Double(trajectory.points.count)
        return TrajectoryJudgement(trajectory: trajectory, flightID: bestFlight?.id, matches: best, isTrue: isTrue)
    }

    /// Turns true trajectories that repeat an earlier one's frames on the same flight into
    /// false ones (rule 4), visiting trajectories by first frame, then most matched points first.
    /// The report's own order says nothing about which is the original: it lists trajectories
    /// that start together by where they start, and those that start at the same point, as a
    /// duplicate of a flight's start does, in the order the tracker first reported them.
    private static func markingDuplicates(_ judgements: [TrajectoryJudgement]) -> [TrajectoryJudgement] {
        var marked = judgements
        var claimed: [Int: [(uuid: UUID, frames: Set<Int>)]] = [:]
        let order = judgements.indices.sorted {
            (judgements[$0].trajectory.firstFrame ?? 0, -judgements[$0].matches.count, $0)
                < (judgements[$1].trajectory.firstFrame ?? 0, -judgements[$1].matches.count, $1)
        }
        for index in order {
            let judgement = judgements[index]
            guard judgement.isTrue, let flight = judgement.flightID else { continue }
            let frames = Set(judgement.matches.map(\.frame))
            let earlier = claimed[flight, default: []]
            if let original = earlier.first(where: { 2 * $0.frames.intersection(frames).count > frames.count }) {
                marked[index] = judgement.duplicate(of: original.uuid)
            } else {
                claimed[flight, default: []].append((judgement.trajectory.uuid, frames))
            }
        }
        return marked
    }

    private func outcome(
        of flight: IndexedFlight, judgements: [TrajectoryJudgement], minimumFrames: Int, framesPerStep: Int
    ) -> FlightOutcome {
        var covered = Set<Int>()
        for judgement in judgements {
            covered.formUnion(judgement.coveredFrames(framesPerStep: framesPerStep))
        }
        let coveredVisible = flight.visibleFrames.intersection(covered).count
        let visible = flight.visibleFrames.count
        let status: FlightOutcome.Status =
            if visible < minimumFrames { .unreportable }
            else if Double(coveredVisible) >= options.minimumCoverage * Double(visible) { .found }
            else { .missed }
        let matches = judgements.flatMap(\.matches)
        var uuids: [UUID] = []
        for judgement in judgements.sorted(by: { ($0.trajectory.firstFrame ?? 0) < ($1.trajectory.firstFrame ?? 0) })
        where !uuids.contains(judgement.trajectory.uuid) {
            uuids.append(judgement.trajectory.uuid)
        }
        return FlightOutcome(
            id: flight.id, status: status, radius: flight.radius, tolerance: flight.tolerance,
            firstFrame: flight.firstFrame, lastFrame: flight.lastFrame, visibleFrames: visible,
            coveredFrames: coveredVisible, trajectories: uuids, matchedPoints: matches.count,
            meanError: Rate.mean(matches.errorSum, count: matches.count), maxError: matches.map(\.error).max())
    }

    private static func counts(flights: [FlightOutcome], judgements: [TrajectoryJudgement]) -> FlightCounts {
        let reportable = flights.filter { $0.status != .unreportable }
        let found = reportable.filter { $0.status == .found }
        let trueMatches = judgements.filter(\.isTrue).flatMap(\.matches)
        return FlightCounts(
            flights: reportable.count,
            foundFlights: found.count,
            unreportableFlights: flights.count - reportable.count,
            trajectories: judgements.count,
            trueTrajectories: judgements.filter(\.isTrue).count,
            trajectoriesOnFoundFlights: found.map(\.trajectories.count).reduce(0, +),
            visibleFrames: reportable.map(\.visibleFrames).reduce(0, +),
            coveredFrames: reportable.map(\.coveredFrames).reduce(0, +),
            matchedPoints: trueMatches.count,
            pointErrorSum: trueMatches.errorSum,
            maxPointError: trueMatches.map(\.error).max() ?? 0)
    }
}

/// One reported point within tolerance of a flight's ball, and how far from it, in pixels.
struct PointMatch: Sendable, Hashable {
    var frame: Int
    var error: Double
}

extension [PointMatch] {
    var errorSum: Double { map(\.error).reduce(0, +) }
}

/// A ground-truth flight looked up by frame, with its match tolerance.
struct IndexedFlight: Sendable {
    let id: Int
    let radius: Double
    let tolerance: Double
    let firstFrame: Int?
    let lastFrame: Int?
    let visibleFrames: Set<Int>
    private let positions: [Int: PixelPoint]

    /// Every flight of `truth`, checked for what scoring relies on.
    static func index(
        _ truth: GroundTruth, options: FlightScoringOptions, name: String
    ) throws(EvaluationError) -> [IndexedFlight] {
        guard truth.width > 0, truth.height > 0 else {
            throw .invalidDocument(name: name, problem: "width and height must be positive, found \(truth.width)x\(truth.height)")
        }
        var seen = Set<Int>()
        var flights: [IndexedFlight] = []
        for flight in truth.flights {
            guard seen.insert(flight.id).inserted else {
                throw .invalidDocument(name: name, problem: "two flights have the id \(flight.id)")
            }
            guard flight.radius.isFinite, flight.radius >= 0 else {
                throw .invalidDocument(name: name, problem: "flight \(flight.id) has radius \(flight.radius)")
            }
            for (earlier, later) in zip(flight.points, flight.points.dropFirst()) where later.frame <= earlier.frame {
                throw .invalidDocument(
                    name: name, problem: "flight \(flight.id): frame \(later.frame) follows frame \(earlier.frame); "
                        + "points must be in increasing frame order")
            }
            flights.append(IndexedFlight(flight, tolerance: options.tolerance(forRadius: flight.radius)))
        }
        return flights
    }

    private init(_ flight: GroundTruth.Flight, tolerance: Double) {
        id = flight.id
        radius = flight.radius
        self.tolerance = tolerance
        firstFrame = flight.points.first?.frame
        lastFrame = flight.points.last?.frame
        visibleFrames = Set(flight.points.filter(\.visible).map(\.frame))
        positions = Dictionary(flight.points.map { ($0.frame, PixelPoint(x: $0.x, y: $0.y)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The points that lie within tolerance of this flight's ball in their frame.
    func matches(of points: [FramePoint]) -> [PointMatch] {
        points.compactMap { point in
            guard let ball = positions[point.frame] else { return nil }
            let error = point.position.distance(to: ball)
            return error <= tolerance ? PointMatch(frame: point.frame, error: error) : nil
        }
    }
}

/// A trajectory, the flight it was assigned to, and the verdict.
struct TrajectoryJudgement: Sendable {
    let trajectory: PixelTrajectory
    let flightID: Int?
    /// Its points matching that flight.
    let matches: [PointMatch]
    let isTrue: Bool
    /// The trajectory it repeats, when it is a duplicate (and so not true).
    var duplicateOf: UUID?

    /// The same judgement, as a duplicate of `original`.
    func duplicate(of original: UUID) -> TrajectoryJudgement {
        var copy = TrajectoryJudgement(trajectory: trajectory, flightID: flightID, matches: matches, isTrue: false)
        copy.duplicateOf = original
        return copy
    }

    /// The frames of its matched points, plus the frames between two of them at most
    /// `framesPerStep` apart (frames the detector was not asked to analyse).
    func coveredFrames(framesPerStep: Int) -> Set<Int> {
        let frames = Set(matches.map(\.frame)).sorted()
        var covered = Set(frames)
        for (earlier, later) in zip(frames, frames.dropFirst()) where later - earlier <= framesPerStep {
            covered.formUnion(earlier...later)
        }
        return covered
    }

    func outcome(distractors: [GroundTruth.Distractor]) -> TrajectoryOutcome {
        let first = trajectory.firstFrame
        let last = trajectory.lastFrame
        var concurrent: [String] = []
        if !isTrue, duplicateOf == nil, let first, let last {
            for distractor in distractors
            where distractor.firstFrame <= last && distractor.lastFrame >= first && !concurrent.contains(distractor.kind) {
                concurrent.append(distractor.kind)
            }
        }
        return TrajectoryOutcome(
            uuid: trajectory.uuid, isTrue: isTrue, duplicateOf: duplicateOf, points: trajectory.points.count, firstFrame: first,
            lastFrame: last, flight: flightID, matchedPoints: matches.count,
            meanError: Rate.mean(matches.errorSum, count: matches.count), maxError: matches.map(\.error).max(),
            concurrentDistractors: concurrent)
    }
}

extension TrajectoryReport {
    /// How many frames apart two consecutive analysed frames are at most. 1 when every frame is
    /// analysed; with `frameAnalysisSpacing` s at f frames per second the frames within s after
    /// an analysed one are skipped, so the next analysed frame is ⌊s·f⌋ + 1 later (the small
    /// allowance keeps s = 1/f from rounding down to 0 skipped frames).
    var framesPerAnalysisStep: Int {
        let skipped = request.frameAnalysisSpacing * source.frameRate
        guard skipped.isFinite, skipped > 0 else { return 1 }
        return Int(min(skipped + 1e-6, 1e6).rounded(.down)) + 1
    }

    /// Visible frames a flight needs before a detector may report it: `trajectoryLength` analysed frames.
    func minimumReportableFrames(step: Int) -> Int {
        (max(request.trajectoryLength, 1) - 1) * step + 1
    }
}
