import Foundation
import Testing
import TrajectoryKit
import TestSupport

/// `trajectories detect` and `info` run as a user runs them: exit status, stdout, stderr.
@Suite struct DetectCommandTests {
    static let toss = CommandLineRunner.sharedClip("toss-vertical.mp4")
    static let carried = CommandLineRunner.sharedClip("carried-by-hand.mp4")

    static func schema(_ name: String) throws -> JSONSchemaValidator {
        let url = CommandLineRunner.repositoryRoot.appendingPathComponent("Schemas/\(name)")
        return try JSONSchemaValidator(schemaText: String(contentsOf: url, encoding: .utf8))
    }

    static func report(_ outcome: CommandLineRunner.Outcome) throws -> TrajectoryReport {
        try JSONDecoder().decode(TrajectoryReport.self, from: Data(outcome.standardOutput.utf8))
    }

    @Test("the vertical toss gives one trajectory over the flight, with finite coefficients, as valid JSON")
    func verticalToss() throws {
        let outcome = try CommandLineRunner.run(["detect", Self.toss, "--length", "10"])
        #expect(outcome.status == 0)
        #expect(outcome.standardError.isEmpty)
        #expect(try Self.schema("trajectories.schema.json").violations(of: .parse(outcome.standardOutput)) == [])
        let report = try Self.report(outcome)
        #expect(report.source.width == 1280 && report.source.height == 720 && report.source.frameCount == 60)
        // The ball leaves the hand at frame 18 and is caught at frame 36 (checked by eye). Before
        // frame 17 the hand carries it up: a point there is the hand, which backfilling the
        // flight's start must leave out.
        try #require(report.trajectories.count == 1)
        let flight = report.trajectories[0]
        #expect((17...20).contains(flight.points.first!.frame) && flight.points.last!.frame >= 33)
        let coefficients = flight.equationCoefficients
        #expect([coefficients.a, coefficients.b, coefficients.c].allSatisfy { $0.isFinite })
        #expect(flight.projectedPoints.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    }

    @Test("a target frame time no frame can meet lowers the resolution, and the vertical toss is still found over its flight")
    func unreachableTargetFrameTime() throws {
        // Analysed at another resolution than by default, the points are not quite the same.
        #expect(try !Self.tossFlightWithPointsMoved(by: ["--target-frame-time", "0.000001"]).movedPoints.isEmpty)
    }

    /// The vertical toss's one trajectory, checked to cover the flight, with `arguments`, and
    /// those of its points that differ from the default run's on the same frame.
    static func tossFlightWithPointsMoved(
        by arguments: [String]
    ) throws -> (flight: TrajectoryReport.Trajectory, movedPoints: [TrajectoryReport.Point]) {
        let outcome = try CommandLineRunner.run(["detect", Self.toss] + arguments)
        #expect(outcome.status == 0)
        #expect(outcome.standardError.isEmpty)
        let report = try Self.report(outcome)
        try #require(report.trajectories.count == 1)
        let flight = report.trajectories[0]
        #expect(flight.points.first!.frame <= 20 && flight.points.last!.frame >= 33)
        let plain = try Self.report(CommandLineRunner.run(["detect", Self.toss]))
        try #require(plain.trajectories.count == 1)
        let shared = Dictionary(plain.trajectories[0].points.map { ($0.frame, $0) }, uniquingKeysWith: { a, _ in a })
        let moved = flight.points.filter { point in shared[point.frame].map { $0.x != point.x || $0.y != point.y } ?? false }
        return (flight, moved)
    }

    @Test("without the loop filter the vertical toss is still one trajectory over its flight, its points a little moved, and the carried ball gives none")
    func skippedLoopFilter() throws {
        // Decoded from slightly different pictures, some points move: the flag reached the decoder.
        let (flight, moved) = try Self.tossFlightWithPointsMoved(by: ["--skip-loop-filter"])
        #expect(!moved.isEmpty)
        // JSON Lines decode the same way.
        let lines = try CommandLineRunner.run(["detect", Self.toss, "--skip-loop-filter", "--format", "jsonl"])
        let linePoints = try lines.standardOutput.split(separator: "\n")
            .map { try JSONDecoder().decode(FrameReport.self, from: Data($0.utf8)) }
            .flatMap { $0.observations.flatMap(\.newPoints) }
        #expect(linePoints.map { [Double($0.frame), $0.x, $0.y] } == flight.points.map { [Double($0.frame), $0.x, $0.y] })

        let carried = try CommandLineRunner.run(["detect", Self.carried, "--skip-loop-filter"])
        #expect(carried.status == 0)
        #expect(try Self.report(carried).trajectories.isEmpty)
    }

    @Test("without the helper thread the vertical toss gives the same trajectory, point for point")
    func withoutHelperThread() throws {
        #expect(try Self.tossFlightWithPointsMoved(by: ["--no-helper-thread"]).movedPoints.isEmpty)
    }

    @Test("a ball carried by hand, never thrown, gives no trajectory")
    func carriedByHand() throws {
        let outcome = try CommandLineRunner.run(["detect", Self.carried])
        #expect(outcome.status == 0)
        #expect(try Self.report(outcome).trajectories.isEmpty)
    }

    @Test("JSON Lines are valid records that together carry exactly the document's points")
    func jsonLines() throws {
        let document = try Self.report(CommandLineRunner.run(["detect", Self.toss]))
        let outcome = try CommandLineRunner.run(["detect", Self.toss, "--format", "jsonl"])
        #expect(outcome.status == 0)
        let schema = try Self.schema("trajectories-frame.schema.json")
        var points: [Int] = []
        for line in outcome.standardOutput.split(separator: "\n") {
            #expect(try schema.violations(of: .parse(String(line))) == [])
            let record = try JSONDecoder().decode(FrameReport.self, from: Data(line.utf8))
            points += record.observations.flatMap(\.newPoints).map(\.frame)
        }
        #expect(points == document.trajectories.flatMap(\.points).map(\.frame))
    }

    @Test("pixel coordinates are the normalized ones scaled to the frame, origin at the top left")
    func pixelCoordinates() throws {
        let normalized = try Self.report(CommandLineRunner.run(["detect", Self.toss]))
        let pixels = try Self.report(CommandLineRunner.run(["detect", Self.toss, "--coordinates", "pixels"]))
        #expect(pixels.request.coordinates == .pixels)
        let pairs = zip(normalized.trajectories.flatMap(\.points), pixels.trajectories.flatMap(\.points))
        #expect(!normalized.trajectories.isEmpty)
        for (n, p) in pairs {
            #expect(abs(n.x * 1280 - p.x) < 0.01 && abs((1 - n.y) * 720 - p.y) < 0.01)
            #expect(abs(n.radius * 1280 - p.radius) < 0.01)
        }
    }

    @Test("standard input, named -, is read like a file")
    func standardInput() throws {
        let outcome = try CommandLineRunner.run(["info", "-"], standardInput: URL(fileURLWithPath: Self.carried))
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("\"width\" : 1280"))
    }

    @Test("an MP4 piped in with its index after its frames, as the toss is stored: info describes it, detect says why it cannot read it")
    func pipedIndexAtTheEnd() throws {
        let toss = URL(fileURLWithPath: Self.toss)
        let described = try CommandLineRunner.run(["info", "-"], standardInput: toss)
        #expect(described.status == 0)
        let info = try JSONDecoder().decode([String: JSONValue].self, from: Data(described.standardOutput.utf8))
        #expect(info["width"] == .number(1280) && info["frameCount"] == .number(60))
        let detected = try CommandLineRunner.run(["detect", "-"], standardInput: toss)
        #expect(detected.status == 1 && detected.standardOutput.isEmpty)
        #expect(detected.errorLines == [
            "trajectories: error: cannot read '-': its index (moov) comes after its frames, and this input cannot seek back "
                + "to them; give the file's path, or move the index first with `ffmpeg -i in.mp4 -c copy -movflags +faststart out.mp4`",
        ])
    }

    @Test("--output writes the document to a file and nothing to standard output")
    func outputFile() throws {
        let folder = try TestFolder.fresh()
        let file = folder.appendingPathComponent("toss.json")
        let outcome = try CommandLineRunner.run(["detect", Self.toss, "--output", file.path])
        #expect(outcome.status == 0 && outcome.standardOutput.isEmpty)
        let written = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: file))
        #expect(written.trajectories.count == 1)
    }

    @Test("a truncated file yields the frames before the cut, with a warning")
    func truncatedFile() throws {
        let folder = try TestFolder.fresh()
        let truncated = folder.appendingPathComponent("cut.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.carried))
        try whole.prefix(whole.count * 6 / 10).write(to: truncated)
        let outcome = try CommandLineRunner.run(["detect", truncated.path])
        #expect(outcome.status == 0)
        let report = try Self.report(outcome)
        #expect(report.source.frameCount > 100 && report.source.frameCount < 486)
        #expect(!report.warnings.isEmpty)
        #expect(outcome.errorLines.contains { $0.hasPrefix("trajectories: warning: ") && $0.contains("ends early") })
    }

    @Test("info describes the video as displayed")
    func info() throws {
        let outcome = try CommandLineRunner.run(["info", Self.toss])
        #expect(outcome.status == 0)
        let info = try JSONDecoder().decode([String: JSONValue].self, from: Data(outcome.standardOutput.utf8))
        #expect(info["width"] == .number(1280) && info["height"] == .number(720))
        #expect(info["frameCount"] == .number(60) && info["codec"] == .string("h264") && info["rotation"] == .number(0))
    }
}
