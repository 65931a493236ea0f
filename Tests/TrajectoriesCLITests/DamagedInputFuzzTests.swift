import Foundation
import Testing
import TrajectorySynth
import TestSupport

/// Damage of every kind, anywhere in a video, in each common container: `detect` either gives
/// results (valid JSON, warnings only on stderr) or refuses the file in one line naming it, and
/// never dies of a signal or hangs. The damages are drawn from a fixed seed (the synth's
/// generator, the same on every machine and Swift version), so a failure is reproduced by
/// running the test again, and each case names its container, number and damage.
///
/// `DamagedFileTests` and `InputOutcomeTests` check chosen damages in detail (a cut, garbage in
/// the frames); this casts a wider net, as a user's broken downloads and half-copied card do.
@Suite struct DamagedInputFuzzTests {
    /// Damaged copies of one clip per container.
    static let damagesPerContainer = 16

    @Test("randomly damaged videos give results or one error line, never a crash or a hang", arguments: ["mp4", "mkv", "ts"])
    func damagedVideos(container: String) throws {
        let folder = try TestFolder.fresh()
        let original = try ThrownBallClip().make(in: folder, named: "intact.\(container)", options: ThrownBallClip.h264)
        let intact = try [UInt8](Data(contentsOf: original))
        // A seed of its own for each container, made from its name.
        var random = SeededGenerator(seed: UInt64(container.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        for index in 0..<Self.damagesPerContainer {
            let damage = Damage.allCases[index % Damage.allCases.count]
            let bytes = damage.apply(to: intact, using: &random)
            let file = folder.appendingPathComponent("damaged-\(index).\(container)")
            try Data(bytes).write(to: file)
            let outcome = try CommandLineRunner.run(["detect", file.path], timeLimit: 60)
            let label = "\(container) case \(index) (\(damage))"
            try #require(!outcome.timedOut, "\(label): hung")
            try #require(!outcome.diedOfSignal, "\(label): crashed: \(outcome.standardError)")
            switch outcome.status {
            case 0:
                let json = try JSONValue.parse(outcome.standardOutput)
                #expect(try DetectCommandTests.schema("trajectories.schema.json").violations(of: json) == [], "\(label)")
                #expect(outcome.errorLines.allSatisfy { $0.hasPrefix("trajectories: warning: ") }, "\(label): \(outcome.errorLines)")
                // Damage nothing noticed must not silently cost the flight the intact clip shows.
                if outcome.errorLines.isEmpty {
                    #expect(try DetectCommandTests.report(outcome).trajectories.count >= 1, "\(label): no warning, no trajectory")
                }
            case 1:
                #expect(outcome.standardOutput.isEmpty, "\(label)")
                #expect(outcome.errorLines.count == 1, "\(label): \(outcome.errorLines)")
                let line = outcome.errorLines.first ?? ""
                #expect(line.hasPrefix("trajectories: error: ") && line.contains(file.lastPathComponent), "\(label): \(line)")
            default:
                Issue.record("\(label): exit status \(outcome.status): \(outcome.errorLines)")
            }
        }
    }

    /// Ways a file gets broken.
    enum Damage: CaseIterable, CustomStringConvertible {
        /// 1 to 40 bits flipped anywhere: a bad card or a noisy link.
        case flippedBits
        /// Up to 4 kB zeroed: a lost block.
        case zeroedRun
        /// Up to 16 kB copied over another place: a misplaced write.
        case misplacedChunk
        /// Cut anywhere: an interrupted download.
        case cut
        /// A few of the first 2 kB overwritten: damaged headers.
        case damagedHeader

        var description: String {
            switch self {
            case .flippedBits: "flipped bits"
            case .zeroedRun: "zeroed run"
            case .misplacedChunk: "misplaced chunk"
            case .cut: "cut"
            case .damagedHeader: "damaged header"
            }
        }

        func apply(to original: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
            var bytes = original
            let count = bytes.count
            switch self {
            case .flippedBits:
                for _ in 0..<random.integer(in: 1...40) {
                    bytes[random.integer(in: 0...(count - 1))] ^= 1 << UInt8(random.integer(in: 0...7))
                }
            case .zeroedRun:
                let start = random.integer(in: 0...(count - 1))
                let end = min(count, start + random.integer(in: 1...4096))
                for index in start..<end { bytes[index] = 0 }
            case .misplacedChunk:
                let length = random.integer(in: 1...min(16384, count / 2))
                let from = random.integer(in: 0...(count - length))
                let to = random.integer(in: 0...(count - length))
                bytes.replaceSubrange(to..<(to + length), with: original[from..<(from + length)])
            case .cut:
                bytes.removeLast(random.integer(in: 1...(count - 1)))
            case .damagedHeader:
                for _ in 0..<random.integer(in: 1...8) {
                    bytes[random.integer(in: 0...(min(2048, count) - 1))] = UInt8(random.integer(in: 0...255))
                }
            }
            return bytes
        }
    }
}
