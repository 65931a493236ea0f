import Foundation
import Testing
import TestSupport

/// Bad input gets one clear line on stderr and a non-zero exit, never a crash or empty success.
@Suite struct CommandErrorTests {
    enum BadInput: String, CaseIterable {
        case missing, text, empty
    }

    static func make(_ input: BadInput, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("\(input.rawValue).mp4")
        switch input {
        case .missing: break
        case .text: try Data("These are notes, not a video.\n".utf8).write(to: file)
        case .empty: try Data().write(to: file)
        }
        return file
    }

    @Test("a missing, text or empty input exits 1 with one line naming the file", arguments: BadInput.allCases)
    func unreadableInput(input: BadInput) throws {
        let file = try Self.make(input, in: TestFolder.fresh())
        for command in ["detect", "info"] {
            let outcome = try CommandLineRunner.run([command, file.path])
            #expect(outcome.status == 1)
            #expect(outcome.standardOutput.isEmpty)
            #expect(outcome.errorLines.count == 1)
            #expect(outcome.errorLines.first?.hasPrefix("trajectories: error: ") == true)
            #expect(outcome.standardError.contains(file.path))
        }
    }

    @Test("the message says why", arguments: [
        (BadInput.missing, "no such file"), (.text, "is not a video"), (.empty, "is empty"),
    ])
    func reasons(input: BadInput, reason: String) throws {
        let file = try Self.make(input, in: TestFolder.fresh())
        #expect(try CommandLineRunner.run(["detect", file.path]).standardError.contains(reason))
    }

    @Test("usage errors exit 64 and name the flag", arguments: [
        (["--length", "3"], "--length"),
        (["--length", "ten"], "--length"),
        (["--length", "1001"], "--length"),
        (["--spacing", "-0.1"], "--spacing"),
        (["--min-radius", "1.5"], "--min-radius"),
        (["--max-radius", "-1"], "--max-radius"),
        (["--max-radius", "0"], "--max-radius"),
        (["--min-radius", "0.5", "--max-radius", "0.1"], "--min-radius"),
        (["--roi", "0,0,1"], "--roi"),
        (["--roi", "0.5,0,0.6,1"], "--roi"),
        (["--format", "xml"], "--format"),
        (["--coordinates", "inches"], "--coordinates"),
        (["--target-frame-time", "0"], "--target-frame-time"),
        (["--target-frame-time", "nan"], "--target-frame-time"),
        (["--analysis-long-side", "0"], "--analysis-long-side"),
    ])
    func usageErrors(flags: [String], flag: String) throws {
        let outcome = try CommandLineRunner.run(["detect", CommandLineRunner.sharedClip("toss-vertical.mp4")] + flags)
        #expect(outcome.status == 64)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains(flag))
    }

    @Test("an output file in a missing folder fails before the video is read")
    func badOutputPath() throws {
        let outcome = try CommandLineRunner.run([
            "detect", CommandLineRunner.sharedClip("carried-by-hand.mp4"), "--output", "/nonexistent-folder/out.json",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.errorLines == ["trajectories: error: cannot write '/nonexistent-folder/out.json': folder '/nonexistent-folder' does not exist or is not writable"])
    }
}
