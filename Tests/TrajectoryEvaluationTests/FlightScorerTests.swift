import Foundation
import Testing
import TrajectoryEvaluation
import TrajectoryKit

/// Hand-built reports against hand-built truth, each with a score worked out by hand.
/// Errors are compared within 1e-9 px: normalizing and back is exact to about 1e-13 px here.
@Suite struct FlightScorerTests {
    let scorer = FlightScorer()
    let flight = Fixture.flight()

    @Test("a report that follows every flight exactly scores perfectly", arguments: CoordinateSpace.allCases)
    func perfect(coordinates: CoordinateSpace) throws {
        let second = Fixture.flight(id: 2, frames: 45..<60, origin: PixelPoint(x: 50, y: 200))
        let report = Fixture.report(
            [Fixture.track(following: flight, frames: 10..<40), Fixture.track(following: second, frames: 45..<60)],
            coordinates: coordinates)
        let score = try scorer.score(report, against: Fixture.truth([flight, second]))

        #expect(score.metrics.recall == 1)
        #expect(score.metrics.precision == 1)
        #expect(score.metrics.f1 == 1)
        #expect(score.metrics.coverage == 1)
        #expect(score.metrics.fragmentation == 1)
        #expect(try #require(score.metrics.meanPointError) < 1e-9)
        #expect(try #require(score.metrics.maxPointError) < 1e-9)
        #expect(score.counts.falseTrajectories == 0)
        #expect(score.counts.matchedPoints == 45)
        #expect(score.flights.map(\.status) == [.found, .found])
        #expect(score.trajectories.map(\.flight) == [1, 2])
    }

    @Test("pixel and normalized reports of the same points score the same")
    func coordinateSpacesAgree() throws {
        let tracks = [
            Fixture.track(following: flight, frames: 10..<30, offset: (2, -1)),
            Fixture.track(at: PixelPoint(x: 600, y: 20), frames: 0..<12),
        ]
        let truth = Fixture.truth([flight])
        let normalized = try scorer.score(Fixture.report(tracks, coordinates: .normalized), against: truth)
        let pixels = try scorer.score(Fixture.report(tracks, coordinates: .pixels), against: truth)

        #expect(normalized.flights.map(\.status) == pixels.flights.map(\.status))
        #expect(normalized.trajectories.map(\.isTrue) == pixels.trajectories.map(\.isTrue))
        #expect(normalized.counts.coveredFrames == pixels.counts.coveredFrames)
        #expect(normalized.counts.matchedPoints == pixels.counts.matchedPoints)
        #expect(abs(normalized.counts.pointErrorSum - pixels.counts.pointErrorSum) < 1e-9)
        #expect(abs(pixels.counts.pointErrorSum - 20 * 5.0.squareRoot()) < 1e-9)
    }

    @Test(
        "a point within max(3 px, 1.5 × radius) of the ball matches it, one farther does not",
        arguments: [
            // (radius, shift in px, matched): tolerance 7.5 px for radius 5, the 3 px floor for radius 1.
            (5.0, 1.0, true), (5.0, 7.4, true), (5.0, 7.6, false), (5.0, 20.0, false),
            (1.0, 2.9, true), (1.0, 3.1, false),
        ])
    func shifted(radius: Double, shift: Double, matched: Bool) throws {
        let flight = Fixture.flight(radius: radius)
        // Shift along a 3-4-5 diagonal so both axes are exercised.
        let report = Fixture.report([Fixture.track(following: flight, frames: 10..<40, offset: (0.6 * shift, -0.8 * shift))])
        let score = try scorer.score(report, against: Fixture.truth([flight]))

        if matched {
            #expect(score.flights[0].status == .found)
            #expect(score.metrics.recall == 1)
            #expect(score.metrics.precision == 1)
            #expect(abs(try #require(score.metrics.meanPointError) - shift) < 1e-9)
            #expect(abs(try #require(score.metrics.maxPointError) - shift) < 1e-9)
        } else {
            #expect(score.flights[0].status == .missed)
            #expect(score.trajectories[0].flight == nil)
            #expect(score.metrics.recall == 0)
            #expect(score.metrics.precision == 0)
            #expect(score.counts.falseTrajectories == 1)
            #expect(score.metrics.meanPointError == nil)
        }
    }

    @Test("one flight reported as two uuids is found, with fragmentation 2")
    func split() throws {
        let first = Fixture.track(following: flight, frames: 10..<25)
        let second = Fixture.track(following: flight, frames: 25..<40)
        // Listed in the report out of order: the flight names them in the order they start.
        let score = try scorer.score(Fixture.report([second, first]), against: Fixture.truth([flight]))

        #expect(score.flights[0].status == .found)
        #expect(score.flights[0].trajectories == [first.uuid, second.uuid])
        #expect(score.metrics.fragmentation == 2)
        #expect(score.metrics.precision == 1)
        #expect(score.metrics.recall == 1)
        #expect(score.metrics.coverage == 1)
    }

    @Test("a second uuid following the same flight at the same time is a duplicate, counted false")
    func duplicate() throws {
        let original = Fixture.track(following: flight, frames: 10..<40)
        let copy = Fixture.track(following: flight, frames: 15..<40, offset: (1, 0))
        let score = try scorer.score(Fixture.report([copy, original]), against: Fixture.truth([flight]))

        #expect(score.flights[0].status == .found)
        #expect(score.flights[0].trajectories == [original.uuid])
        #expect(score.metrics.precision == 0.5)
        #expect(score.metrics.fragmentation == 1)
        let judged = try #require(score.trajectories.first { $0.uuid == copy.uuid })
        #expect(!judged.isTrue && judged.duplicateOf == original.uuid)
    }

    @Test("of two trajectories starting in the same frame, the shorter is the duplicate in either order")
    func duplicateStartingTogether() throws {
        let long = Fixture.track(following: flight, frames: 10..<40)
        let short = Fixture.track(following: flight, frames: 10..<20, offset: (1, 0))
        for listed in [[long, short], [short, long]] {
            let score = try scorer.score(Fixture.report(listed), against: Fixture.truth([flight]))
            #expect(score.counts.falseTrajectories == 1)
            #expect(score.flights[0].trajectories == [long.uuid])
            let judged = try #require(score.trajectories.first { $0.uuid == short.uuid })
            #expect(!judged.isTrue && judged.duplicateOf == long.uuid)
        }
    }

    @Test("trajectories that overlap by a few frames where a flight was split are not duplicates")
    func overlappingSplit() throws {
        let first = Fixture.track(following: flight, frames: 10..<27)
        let second = Fixture.track(following: flight, frames: 24..<40)
        let score = try scorer.score(Fixture.report([first, second]), against: Fixture.truth([flight]))
        #expect(score.metrics.precision == 1)
        #expect(score.metrics.fragmentation == 2)
    }

    @Test("trajectories far from every flight are false and lower precision, naming what moved then")
    func junk() throws {
        let truth = Fixture.truth(
            [flight], distractors: [.init(kind: "walker", firstFrame: 0, lastFrame: 59), .init(kind: "blinker", firstFrame: 50, lastFrame: 59)])
        let junk = Fixture.track(at: PixelPoint(x: 600, y: 30), frames: 0..<15)
        let report = Fixture.report([Fixture.track(following: flight, frames: 10..<40), junk])
        let score = try scorer.score(report, against: truth)

        #expect(score.metrics.recall == 1)
        #expect(score.metrics.precision == 0.5)
        #expect(abs(score.metrics.f1 - 2.0 / 3.0) < 1e-12)
        #expect(score.counts.falseTrajectories == 1)
        let judged = try #require(score.trajectories.first { $0.uuid == junk.uuid })
        #expect(!judged.isTrue)
        #expect(judged.flight == nil)
        #expect(judged.matchedPoints == 0)
        #expect(judged.concurrentDistractors == ["walker"])
    }

    @Test("a trajectory is true when at least half its points match one flight", arguments: [(5, true), (4, false)])
    func halfMatched(pointsOnFlight: Int, isTrue: Bool) throws {
        let onFlight = Fixture.track(following: flight, frames: 10..<(10 + pointsOnFlight)).points
        let offFlight = Fixture.track(at: PixelPoint(x: 600, y: 30), frames: (10 + pointsOnFlight)..<20).points
        let report = Fixture.report([Track(points: onFlight + offFlight)])
        let score = try scorer.score(report, against: Fixture.truth([flight]))

        #expect(score.trajectories[0].points == 10)
        #expect(score.trajectories[0].matchedPoints == pointsOnFlight)
        #expect(score.trajectories[0].flight == 1)
        #expect(score.trajectories[0].isTrue == isTrue)
        #expect(score.counts.trueTrajectories == (isTrue ? 1 : 0))
    }

    @Test("a flight is found when its true trajectories cover half its visible frames", arguments: [(15, true), (14, false)])
    func coverage(coveredFrames: Int, found: Bool) throws {
        let report = Fixture.report([Fixture.track(following: flight, frames: 10..<(10 + coveredFrames))])
        let score = try scorer.score(report, against: Fixture.truth([flight]))

        #expect(score.flights[0].coveredFrames == coveredFrames)
        #expect(score.flights[0].status == (found ? .found : .missed))
        #expect(abs(score.metrics.coverage - Double(coveredFrames) / 30) < 1e-12)
        #expect(score.metrics.precision == 1)
    }

    @Test("a trajectory crossing another flight is assigned to the flight it matches most points of")
    func assignsToTheFlightWithMostMatches() throws {
        // Flight 2 crosses flight 1 at frame 20: at frames 19, 20 and 21 both balls are within tolerance.
        let other = Fixture.flight(id: 2, frames: 15..<25, origin: Fixture.ball(of: flight, at: 20, offset: (-60, 62.5)))
        #expect(Fixture.ball(of: other, at: 20) == Fixture.ball(of: flight, at: 20))
        let report = Fixture.report([Fixture.track(following: flight, frames: 10..<40)])
        let score = try scorer.score(report, against: Fixture.truth([flight, other]))

        #expect(score.trajectories[0].flight == 1)
        #expect(score.trajectories[0].matchedPoints == 30)
        #expect(score.flights.map(\.status) == [.found, .missed])
        #expect(score.flights[1].trajectories.isEmpty)
    }

    @Test("no trajectories: every flight missed; with no flights either, a perfect score")
    func empty() throws {
        let missedAll = try scorer.score(Fixture.report([]), against: Fixture.truth([flight]))
        #expect(missedAll.metrics.recall == 0)
        #expect(missedAll.metrics.precision == 1)
        #expect(missedAll.metrics.f1 == 0)
        #expect(missedAll.metrics.coverage == 0)
        #expect(missedAll.metrics.fragmentation == nil)
        #expect(missedAll.metrics.meanPointError == nil)

        let nothing = try scorer.score(Fixture.report([]), against: Fixture.truth([]))
        #expect(nothing.metrics.recall == 1)
        #expect(nothing.metrics.precision == 1)
        #expect(nothing.metrics.f1 == 1)
    }

    @Test("trajectories where there is no flight give precision 0")
    func noFlights() throws {
        let report = Fixture.report([Fixture.track(at: PixelPoint(x: 300, y: 100), frames: 0..<10)])
        let score = try scorer.score(report, against: Fixture.truth([]))
        #expect(score.metrics.precision == 0)
        #expect(score.metrics.recall == 1)
        #expect(score.metrics.f1 == 0)
        #expect(score.counts.falseTrajectories == 1)
    }

    @Test("a flight shorter than trajectoryLength is unreportable: out of recall, yet finding it is no error")
    func unreportable() throws {
        let short = Fixture.flight(id: 2, frames: 45..<54, origin: PixelPoint(x: 50, y: 200))
        let truth = Fixture.truth([flight, short])
        let report = Fixture.report([
            Fixture.track(following: flight, frames: 10..<40), Fixture.track(following: short, frames: 45..<54),
        ])
        let score = try scorer.score(report, against: truth)
        #expect(score.flights.map(\.status) == [.found, .unreportable])
        #expect(score.counts.flights == 1)
        #expect(score.counts.unreportableFlights == 1)
        #expect(score.counts.visibleFrames == 30)
        #expect(score.metrics.precision == 1)

        let nineFrames = try scorer.score(
            Fixture.report([], trajectoryLength: 9), against: truth)
        #expect(nineFrames.flights.map(\.status) == [.missed, .missed])
        let fixedMinimum = try FlightScorer(options: FlightScoringOptions(minimumReportableFrames: 40))
            .score(Fixture.report([]), against: truth)
        #expect(fixedMinimum.counts.flights == 0)
        #expect(fixedMinimum.metrics.recall == 1)
    }

    @Test("hidden frames are neither required nor wrong")
    func hiddenFrames() throws {
        let occluded = Fixture.flight(hidden: Set(20..<30))
        // Follows the ball through the occlusion as well: those points match, and cover nothing extra.
        let through = try scorer.score(
            Fixture.report([Fixture.track(following: occluded, frames: 10..<40)]), against: Fixture.truth([occluded]))
        #expect(through.flights[0].visibleFrames == 20)
        #expect(through.flights[0].coveredFrames == 20)
        #expect(through.trajectories[0].matchedPoints == 30)
        #expect(through.metrics.precision == 1)

        let visibleOnly = try scorer.score(
            Fixture.report([Fixture.track(following: occluded, frames: Array(10..<20) + Array(30..<40))]),
            against: Fixture.truth([occluded]))
        #expect(visibleOnly.metrics.coverage == 1)
    }

    @Test("with frameAnalysisSpacing, the frames skipped between two matched points are covered")
    func skippedFrames() throws {
        let everyOther = Fixture.track(following: flight, frames: stride(from: 10, to: 40, by: 2))
        let spaced = try scorer.score(
            Fixture.report([everyOther], trajectoryLength: 5, frameAnalysisSpacing: 1 / Fixture.frameRate),
            against: Fixture.truth([flight]))
        #expect(spaced.flights[0].coveredFrames == 29)  // frames 10...38; frame 39 was never analysed
        #expect(spaced.flights[0].status == .found)

        let unspaced = try scorer.score(Fixture.report([everyOther], trajectoryLength: 5), against: Fixture.truth([flight]))
        #expect(unspaced.flights[0].coveredFrames == 15)
    }

    @Test("a report of another frame size is refused")
    func frameSizeMismatch() {
        let report = Fixture.report([Fixture.track(following: flight, frames: 10..<40)], width: 1280, height: 720)
        let error = #expect(throws: EvaluationError.self) {
            try scorer.score(report, against: Fixture.truth([flight]), clip: "big.mp4")
        }
        #expect(error == .frameSizeMismatch(report: "big.mp4", reportWidth: 1280, reportHeight: 720, truthWidth: 640, truthHeight: 360))
    }

    /// Ground truth broken in one way, and what the error must say about it.
    enum BrokenTruth: String, CaseIterable {
        case repeatedFlightID, framesOutOfOrder

        var truth: GroundTruth {
            switch self {
            case .repeatedFlightID:
                return Fixture.truth([Fixture.flight(), Fixture.flight()])
            case .framesOutOfOrder:
                var flight = Fixture.flight(frames: 10..<40)
                flight.points.swapAt(3, 4)
                return Fixture.truth([flight])
            }
        }

        var problem: String {
            switch self {
            case .repeatedFlightID: "two flights have the id 1"
            case .framesOutOfOrder: "frame 13 follows frame 14"
            }
        }
    }

    @Test("ground truth that cannot be scored is refused, saying why", arguments: BrokenTruth.allCases)
    func invalidTruth(broken: BrokenTruth) throws {
        let error = #expect(throws: EvaluationError.self) {
            try scorer.score(Fixture.report([]), against: broken.truth, clip: "clip")
        }
        guard case .invalidDocument(let name, let message) = try #require(error) else {
            Issue.record("expected invalidDocument, got \(String(describing: error))")
            return
        }
        #expect(name == "clip ground truth")
        #expect(message.contains(broken.problem))
    }

    @Test("options outside their range are refused, naming the option")
    func invalidOptions() {
        #expect(throws: EvaluationError.invalidOption(name: "minimumCoverage", problem: "must be in (0, 1], got 1.5")) {
            try FlightScoringOptions(minimumCoverage: 1.5)
        }
        #expect(throws: EvaluationError.self) { try FlightScoringOptions(minimumTolerance: -1) }
        #expect(throws: EvaluationError.self) { try FlightScoringOptions(minimumReportableFrames: 0) }
    }
}
