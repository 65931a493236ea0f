import Foundation
import Glibc
import Testing
import TrajectoryKit
import TestSupport

/// Where `detect` writes its results: what is there stays what it was, and a failed write
/// says why in one line.
@Suite struct OutputDestinationTests {
    @Test("results sent to a named pipe go through it, and it stays a pipe (nothing is renamed over it)", arguments: ["json", "jsonl"])
    func namedPipe(format: String) throws {
        let folder = try TestFolder.fresh()
        let pipe = folder.appendingPathComponent("results").path
        try #require(mkfifo(pipe, 0o600) == 0)
        // Open without waiting for a writer; the toss's results (under 10 kB) fit the pipe's buffer.
        let reader = open(pipe, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }

        let outcome = try CommandLineRunner.run(
            ["detect", DetectCommandTests.toss, "--format", format, "-o", pipe], timeLimit: 120)

        try #require(!outcome.timedOut)
        #expect(outcome.status == 0 && outcome.errorLines.isEmpty, "\(outcome.errorLines)")
        var status = stat()
        #expect(stat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "no longer a named pipe")
        var received = [UInt8](repeating: 0, count: 65_536)
        let count = read(reader, &received, received.count)
        let text = String(decoding: received.prefix(max(count, 0)), as: UTF8.self)
        if format == "json" {
            let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(text.utf8))
            #expect(report.trajectories.count == 1)
        } else {
            let lines = text.split(separator: "\n")
            #expect(lines.count > 10)
            for line in lines { _ = try JSONValue.parse(String(line)) }
        }
    }

    @Test("a symbolic link given to -o stays a link and its target gets the results, also a target not made yet",
          arguments: [true, false])
    func symbolicLink(targetExists: Bool) throws {
        let folder = try TestFolder.fresh()
        let link = folder.appendingPathComponent("latest.json").path
        let target = folder.appendingPathComponent("results").appendingPathComponent("toss.json").path
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if targetExists { try Data("old".utf8).write(to: URL(fileURLWithPath: target)) }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "results/toss.json")

        let outcome = try CommandLineRunner.run(["detect", DetectCommandTests.toss, "-o", link], timeLimit: 120)

        #expect(outcome.status == 0, "\(outcome.errorLines)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "results/toss.json")
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(report.trajectories.count == 1)
    }

    @Test("standard output on a full disk: one line naming it and the system's reason, exit 1")
    func fullDisk() throws {
        let outcome = try CommandLineRunner.run(
            ["detect", DetectCommandTests.toss], standardOutput: URL(fileURLWithPath: "/dev/full"), timeLimit: 120)

        #expect(outcome.status == 1)
        #expect(outcome.errorLines == ["trajectories: error: cannot write the results to standard output: No space left on device"])
    }
}
