import Foundation
import Testing
import TrajectoryKit

@Suite struct FrameSamplerTests {
    /// How a container can store the presentation times of a constant-rate video.
    enum Timestamps: String, CaseIterable, CustomTestStringConvertible {
        /// Exact multiples of the frame period (an MP4 time scale matching the rate).
        case exact
        /// Rounded to whole milliseconds, as Matroska stores them.
        case milliseconds

        var testDescription: String { rawValue }

        func times(frameRate: Double, count: Int) -> [Double] {
            (0..<count).map { index in
                let time = Double(index) / frameRate
                switch self {
                case .exact: return time
                case .milliseconds: return (time * 1000).rounded() / 1000
                }
            }
        }
    }

    static let frameRates = [30.0, 30000.0 / 1001]

    static func analysed(_ times: [Double], spacing: Double) throws -> [Int] {
        var sampler = try FrameSampler(spacing: spacing)
        return times.indices.filter { sampler.shouldAnalyze(frameAt: times[$0]) }
    }

    @Test("a spacing of 0 analyses every frame", arguments: frameRates, Timestamps.allCases)
    func everyFrame(frameRate: Double, timestamps: Timestamps) throws {
        let times = timestamps.times(frameRate: frameRate, count: 300)
        #expect(try Self.analysed(times, spacing: 0) == Array(0..<300))
    }

    @Test("a spacing of two frame periods analyses exactly every other frame", arguments: frameRates, Timestamps.allCases)
    func everyOtherFrame(frameRate: Double, timestamps: Timestamps) throws {
        let times = timestamps.times(frameRate: frameRate, count: 300)
        #expect(try Self.analysed(times, spacing: 2 / frameRate) == Array(stride(from: 0, to: 300, by: 2)))
    }

    @Test("a spacing of two and a half frame periods analyses every third frame", arguments: frameRates, Timestamps.allCases)
    func everyThirdFrame(frameRate: Double, timestamps: Timestamps) throws {
        let times = timestamps.times(frameRate: frameRate, count: 300)
        #expect(try Self.analysed(times, spacing: 2.5 / frameRate) == Array(stride(from: 0, to: 300, by: 3)))
    }

    @Test("a spacing longer than the clip analyses only the first frame", arguments: frameRates)
    func onlyFirst(frameRate: Double) throws {
        let times = Timestamps.exact.times(frameRate: frameRate, count: 90)
        #expect(try Self.analysed(times, spacing: 10) == [0])
    }

    @Test("spacing follows timestamps, not frame counts: after a gap the next frame is analysed")
    func droppedFrames() throws {
        // Frames 3 to 6 were dropped: the frame after the gap is due.
        let times = [0, 1, 2, 7, 8, 9, 10].map { Double($0) / 30 }
        #expect(try Self.analysed(times, spacing: 2.0 / 30) == [0, 2, 3, 5])
    }

    @Test("a timestamp going back (a seek) is analysed and restarts the spacing")
    func seek() throws {
        var sampler = try FrameSampler(spacing: 1)
        let decisions = [5, 5.5, 2, 2.5].map { sampler.shouldAnalyze(frameAt: $0) }
        #expect(decisions == [true, false, true, false])
    }

    @Test("slow motion is analysed at about 30 frames a second; ordinary rates, unknown ones and those past any camera (a damaged stream's 90 000) frame by frame", arguments: [
        (24.0, 1), (30, 1), (50, 1), (60000.0 / 1001, 1), (60, 1), (89.9, 1), (90, 3), (100, 3), (120000.0 / 1001, 4),
        (120, 4), (240, 8), (480, 16), (960, 32), (1000, 33), (1000.1, 1), (90_000, 1), (0, 1), (.nan, 1), (.infinity, 1),
    ])
    func slowMotionStep(frameRate: Double, step: Int) {
        #expect(SlowMotion.frameStep(forFrameRate: frameRate) == step)
        #expect((SlowMotion.frameAnalysisSpacing(forFrameRate: frameRate) == nil) == (step == 1))
    }

    @Test("the slow-motion spacing analyses one frame in every step, with timestamps exact, in milliseconds, or off by up to 0.15 frame", arguments: [120.0, 240])
    func slowMotionSpacing(frameRate: Double) throws {
        let step = SlowMotion.frameStep(forFrameRate: frameRate)
        let spacing = try #require(SlowMotion.frameAnalysisSpacing(forFrameRate: frameRate))
        let count = 20 * step
        let wanted = Array(stride(from: 0, to: count, by: step))
        for timestamps in Timestamps.allCases {
            #expect(try Self.analysed(timestamps.times(frameRate: frameRate, count: count), spacing: spacing) == wanted)
        }
        // A phone's variable rate: each time off by up to 0.15 frame, early or late.
        let jittered = (0..<count).map { index in (Double(index) + [0, 0.15, -0.15][index % 3]) / frameRate }
        #expect(try Self.analysed(jittered, spacing: spacing) == wanted)
    }

    @Test("a negative or non-finite spacing is rejected, naming the setting", arguments: [-0.1, .infinity, .nan])
    func invalid(spacing: Double) {
        #expect {
            _ = try FrameSampler(spacing: spacing)
        } throws: { error in
            (error as? ConfigurationError)?.parameter == "frameAnalysisSpacing"
        }
    }
}
