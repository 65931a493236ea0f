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

    @Test("a negative or non-finite spacing is rejected, naming the setting", arguments: [-0.1, .infinity, .nan])
    func invalid(spacing: Double) {
        #expect {
            _ = try FrameSampler(spacing: spacing)
        } throws: { error in
            (error as? ConfigurationError)?.parameter == "frameAnalysisSpacing"
        }
    }
}
