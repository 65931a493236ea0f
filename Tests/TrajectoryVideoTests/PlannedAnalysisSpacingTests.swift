import Testing
import TrajectoryKit
@testable import TrajectoryVideo

/// Decoding is planned for the frames the request will analyse, so the plan must count them
/// as the request's sampler does.
@Suite("Planned analysis spacing")
struct PlannedAnalysisSpacingTests {
    /// Spacings in seconds, frame rates, and the frames from one analysed frame to the next.
    static let givenSpacings: [(spacing: Double, frameRate: Double, step: Int)] = [
        (0, 30, 1), (0.5 / 30, 30, 1), (1.5 / 30, 30, 2), (2.5 / 30, 30, 3), (3.5 / 30, 30, 4), (4.0 / 30, 30, 4),
        (0.1, 240, 24), (0.1, 0, 1), (1, .nan, 1),
    ]

    @Test("a spacing given counts the frames the request's sampler steps over", arguments: givenSpacings)
    func givenSpacing(spacing: Double, frameRate: Double, step: Int) {
        let plan = PlannedAnalysisSpacing(spacing: spacing, suitsSlowMotion: false)
        #expect(plan.frameStep(atFrameRate: frameRate) == step)
        #expect(plan.spacing(atFrameRate: frameRate) == spacing)
    }

    @Test("the same step as the sampler takes, frame by frame", arguments: [1.5 / 30, 3.5 / 30, 7.5 / 240, 0.2])
    func matchesSampler(spacing: Double) throws {
        let frameRate = 30.0
        var sampler = try FrameSampler(spacing: spacing)
        let analysed = (0..<200).filter { sampler.shouldAnalyze(frameAt: Double($0) / frameRate) }
        let steps = Set(zip(analysed.dropFirst(), analysed).map { $0 - $1 })
        #expect(steps == [PlannedAnalysisSpacing(spacing: spacing, suitsSlowMotion: false).frameStep(atFrameRate: frameRate)])
    }

    @Test("suited to slow motion, an unspaced request is planned at one frame in rate ÷ 30")
    func slowMotion() {
        let plan = PlannedAnalysisSpacing(spacing: 0, suitsSlowMotion: true)
        #expect(plan.frameStep(atFrameRate: 240) == 8)
        #expect(plan.spacing(atFrameRate: 240) == 7.5 / 240)
        #expect(plan.frameStep(atFrameRate: 120) == 4)
        #expect(plan.frameStep(atFrameRate: 60) == 1)
        #expect(plan.spacing(atFrameRate: 60) == 0)
        // A spacing given wins over slow motion.
        #expect(PlannedAnalysisSpacing(spacing: 1.5 / 240, suitsSlowMotion: true).frameStep(atFrameRate: 240) == 2)
    }

    @Test("a spacing of hours, or the largest there is, plans without overflowing")
    func hugeSpacing() {
        #expect(PlannedAnalysisSpacing(spacing: 3600, suitsSlowMotion: false).frameStep(atFrameRate: 240) == 864_000)
        #expect(PlannedAnalysisSpacing(spacing: .greatestFiniteMagnitude, suitsSlowMotion: false).frameStep(atFrameRate: 30)
            == PlannedAnalysisSpacing.largestStep)
    }

    @Test("two lanes pay for frames analysed shrunk, or for one frame in 4 or fewer")
    func lanesPay() {
        #expect(!DecodingLanes.pay(width: 1280, height: 720, minimumLongSide: 1280, analysedFrameStep: 1))
        #expect(!DecodingLanes.pay(width: 1280, height: 720, minimumLongSide: 1280, analysedFrameStep: 3))
        #expect(DecodingLanes.pay(width: 1280, height: 720, minimumLongSide: 1280, analysedFrameStep: 4))
        #expect(DecodingLanes.pay(width: 1920, height: 1080, minimumLongSide: 960, analysedFrameStep: 1))
    }
}
