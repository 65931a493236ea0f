import Foundation
import Testing
import TrajectoryEvaluation
import TrajectoryKit

/// A hand-made label file and report where every frame's verdict is worked out by hand.
@Suite struct PointScorerTests {
    /// Frame 7 has no label: its prediction is not scored.
    static let labels = """
        Frame,Visibility,X,Y
        0,0,0,0
        1,0,,
        2,1,100,100
        3,1,110,100
        4,1,120,100
        5,1,130,100
        6,1,140,100
        """

    /// Frame by frame, with a 4 px tolerance:
    /// 0 nothing where nothing is: TN. 1 something where nothing is: FP (spurious).
    /// 2 off by 2 px: TP. 3 off by 3 px: TP. 4 nothing: FN (missed).
    /// 5 off by 10 px: FN and FP (mislocated). 6 on the ball and a second point elsewhere: TP and FP.
    static func report(coordinates: CoordinateSpace = .normalized) -> TrajectoryReport {
        let ball = Track(points: [
            (2, PixelPoint(x: 102, y: 100)), (3, PixelPoint(x: 110, y: 103)), (5, PixelPoint(x: 140, y: 100)),
            (6, PixelPoint(x: 140, y: 100)), (7, PixelPoint(x: 150, y: 100)),
        ])
        let other = Track(points: [(1, PixelPoint(x: 300, y: 300)), (6, PixelPoint(x: 300, y: 300))])
        return Fixture.report([ball, other], coordinates: coordinates)
    }

    @Test("known TP, FP, FN and TN counts, in either coordinate space", arguments: CoordinateSpace.allCases)
    func handMade(coordinates: CoordinateSpace) throws {
        let score = try PointScorer().score(Self.report(coordinates: coordinates), against: TrackNetLabels(csv: Self.labels))

        #expect(score.counts.labelledFrames == 7)
        #expect(score.counts.visibleLabels == 5)
        #expect(score.counts.predictions == 6)
        #expect(score.counts.truePositives == 3)
        #expect(score.counts.falsePositives == 3)
        #expect(score.counts.falseNegatives == 2)
        #expect(score.counts.trueNegatives == 1)
        #expect(score.counts.mislocated == 1)
        #expect(score.counts.unlabelledPredictions == 1)
        #expect(score.metrics.precision == 0.5)
        #expect(score.metrics.recall == 0.6)
        #expect(abs(score.metrics.f1 - 6.0 / 11.0) < 1e-12)
        #expect(abs(try #require(score.metrics.meanError) - 5.0 / 3.0) < 1e-9)
        #expect(abs(try #require(score.metrics.maxError) - 3) < 1e-9)
        #expect(score.mistakes.map(\.frame) == [1, 4, 5, 6])
        #expect(score.mistakes.map(\.kind) == [.spurious, .missed, .mislocated, .duplicated])
        #expect(abs(try #require(score.mistakes[2].distance) - 10) < 1e-9)
    }

    @Test("a wider tolerance turns the mislocated frame into a true positive")
    func widerTolerance() throws {
        let score = try PointScorer(tolerance: 12).score(Self.report(), against: TrackNetLabels(csv: Self.labels))
        #expect(score.counts.truePositives == 4)
        #expect(score.counts.falsePositives == 2)
        #expect(score.counts.falseNegatives == 1)
        #expect(score.counts.mislocated == 0)
    }

    @Test("no predictions: recall 0 and precision 1; no visible ball and no prediction: perfect")
    func empty() throws {
        let labels = try TrackNetLabels(csv: Self.labels)
        let none = try PointScorer().score(Fixture.report([]), against: labels)
        #expect(none.metrics.recall == 0)
        #expect(none.metrics.precision == 1)
        #expect(none.metrics.f1 == 0)
        #expect(none.counts.falseNegatives == 5)

        let nothingThere = try PointScorer().score(Fixture.report([]), against: TrackNetLabels(csv: "Frame,Visibility,X,Y\n0,0,,\n"))
        #expect(nothingThere.metrics.precision == 1)
        #expect(nothingThere.metrics.recall == 1)
        #expect(nothingThere.counts.trueNegatives == 1)
    }

    @Test("a tolerance that is not a positive number is refused", arguments: [0, -1, Double.nan, .infinity])
    func invalidTolerance(tolerance: Double) {
        #expect(throws: EvaluationError.self) { try PointScorer(tolerance: tolerance) }
    }
}
