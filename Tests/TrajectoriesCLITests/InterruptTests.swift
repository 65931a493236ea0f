import Foundation
import TestSupport
import Testing
import TrajectoryKit

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C on a long run (hours of match footage, a live stream) keeps what was found: the
/// results so far are written, complete and valid, with a warning, and the exit status says
/// the run was stopped.
@Suite struct InterruptTests {
    @Test("SIGINT or SIGTERM on a stream that has gone silent writes the results so far and exits 128 + the signal",
          arguments: [(SIGINT, "json"), (SIGINT, "jsonl"), (SIGTERM, "json")])
    func stopOnSilentStream(signal signalNumber: Int32, format: String) throws {
        let folder = try TestFolder.fresh()
        // Matroska hands over each frame as soon as its bytes are in.
        let clip = folder.appendingPathComponent("toss.mkv").path
        try FFmpeg.run(["-i", DetectCommandTests.toss, "-c", "copy", clip])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))

        let (process, input, outputFile, errorFile) = try Self.launchDetect(["-", "--format", format], in: folder)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The whole clip, then silence with the pipe open: without the signal the run would
        // wait for the rest of the stream for ever.
        input.fileHandleForWriting.write(bytes)
        try Self.waitUntilRead(bytes.count, by: process.processIdentifier, within: 30)
        Thread.sleep(forTimeInterval: 1)  // for the frames read to be analysed
        kill(process.processIdentifier, signalNumber)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try #require(!process.isRunning, "the run went on waiting for the stream")
        try input.fileHandleForWriting.close()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signalNumber)
        let errors = try String(contentsOf: errorFile, encoding: .utf8).split(separator: "\n")
        let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(errors.last == "trajectories: warning: stopped by \(name)", "\(errors)")
        #expect(errors.contains { $0.hasPrefix("trajectories: warning: stopped early: the results cover the first ") })
        let output = try String(contentsOf: outputFile, encoding: .utf8)
        // The flight, frames 18 to 36, was analysed before the signal and is in the results.
        let frames: [Int]
        if format == "json" {
            let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(output.utf8))
            try #require(report.trajectories.count == 1)
            frames = report.trajectories[0].points.map(\.frame)
            #expect(report.warnings.contains { $0.hasPrefix("stopped early") })
        } else {
            let lines = output.split(separator: "\n")
            frames = try lines.map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return try #require(object["frame"] as? Int)
            }
        }
        #expect((frames.first ?? .max) <= 28 && (frames.last ?? 0) >= 33, "\(frames)")
    }

    @Test("SIGINT while the input has sent nothing yet stops at once with one warning, no JSON and exit 130")
    func stopBeforeTheInputOpens() throws {
        let folder = try TestFolder.fresh()
        // A pipe nothing is written to: `detect -` typed at a prompt with nothing piped in.
        let (process, input, outputFile, errorFile) = try Self.launchDetect(["-"], in: folder)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? input.fileHandleForWriting.close()
        }
        Thread.sleep(forTimeInterval: 1)  // for FFmpeg to be waiting in its first read
        // Before, the first Ctrl-C went unanswered until the pipe's writer closed it.
        let errors = try Self.interruptExpectingNothingAnalysed(process, errors: errorFile, output: outputFile)
        #expect(errors == ["trajectories: warning: stopped by SIGINT before '-' was open: nothing was analysed"])
    }

    @Test("SIGINT before any frame of a stream whose size is still unknown stops with one warning, no JSON and exit 130")
    func stopBeforeTheSizeIsKnown() throws {
        let folder = try TestFolder.fresh()
        // More undecodable H.264 than FFmpeg probes, then silence, on a named pipe (its name
        // tells FFmpeg the format, which a bare pipe's bytes cannot): the input opens with no
        // size, and no frame comes to give it one.
        let clip = try Data(contentsOf: ThrownBallClip().make(in: folder, named: "clip.h264", options: ThrownBallClip.h264))
        let bytes = InputOutcomeTests.undecodableLead(from: clip)
        let fifo = folder.appendingPathComponent("joined.h264").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Opened for reading too, so this open does not wait for the reader and the reader
        // never sees the pipe's end.
        let writeEnd = open(fifo, O_RDWR)
        try #require(writeEnd >= 0)
        defer { close(writeEnd) }
        Thread { try? FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false).write(contentsOf: bytes) }.start()
        let (process, input, outputFile, errorFile) = try Self.launchDetect([fifo], in: folder)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? input.fileHandleForWriting.close()
        }
        try Self.waitUntilRead(bytes.count, by: process.processIdentifier, within: 60)
        Thread.sleep(forTimeInterval: 0.5)  // for the run to be waiting for its first frame
        // Before, the report of a video without a size crashed (a zero frame width).
        let errors = try Self.interruptExpectingNothingAnalysed(process, errors: errorFile, output: outputFile)
        #expect(errors.last == "trajectories: warning: stopped by SIGINT before any frame of '\(fifo)' was decoded: nothing was analysed")
    }

    @Test("SIGINT while the overlay is drawn ends the drawing: a playable overlay of the frames drawn so far, the results whole, exit 130")
    func stopWhileDrawingTheOverlay() throws {
        let folder = try TestFolder.fresh()
        // Drawing and encoding its 1 328 frames at 1080p takes seconds, long after the first
        // overlay bytes are out.
        let (clip, frameCount) = try Self.makeLongClip(in: folder)
        let results = folder.appendingPathComponent("results.json").path
        let overlay = folder.appendingPathComponent("overlay.mp4").path

        let (process, input, _, errorFile) = try Self.launchDetect([clip, "-o", results, "--overlay", overlay], in: folder)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try input.fileHandleForWriting.close()
        // The results are written before the drawing starts; the overlay file once its first
        // picture is encoded.
        let started = Date().addingTimeInterval(120)
        while process.isRunning && Date() < started
            && ((try? FileManager.default.attributesOfItem(atPath: overlay)[.size] as? Int) ?? 0) == 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let errorsSoFar = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        try #require(process.isRunning, "the run ended before the signal: \(errorsSoFar)")
        let errors = try Self.interrupt(process, errors: errorFile, goingOnWith: "drawing")
        #expect(errors.last == "trajectories: warning: stopped by SIGINT", "\(errors)")
        let prefix = "trajectories: warning: --overlay was stopped early: '\(overlay)' holds the first "
        let drawn = try #require(errors.first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) })
        #expect(drawn > 0 && drawn < frameCount)
        // The overlay is a complete video of exactly those frames; the results cover the whole clip.
        let info = try CommandLineRunner.run(["info", overlay])
        let description = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
        #expect(description["frameCount"] as? Int == drawn)
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: results)))
        #expect(report.source.frameCount == frameCount)
        #expect(!report.trajectories.isEmpty)
    }

    @Test("SIGINT while clips are cut keeps the clips already whole, removes the one being written, and exits 130")
    func stopWhileCuttingClips() throws {
        let folder = try TestFolder.fresh()
        let (clip, _) = try Self.makeLongClip(in: folder)
        let results = folder.appendingPathComponent("results.json").path
        let detect = try CommandLineRunner.run(["detect", clip, "-o", results])
        try #require(detect.status == 0, "\(detect.standardError)")
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: results)))
        let clipFolder = folder.appendingPathComponent("clips")

        let (process, input, outputFile, errorFile) = try Self.launch(
            ["clips", clip, "--result", results, "--out", clipFolder.path], in: folder)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try input.fileHandleForWriting.close()
        // The first piece is stream-copied; the signal comes once a re-encoded one is open.
        let started = Date().addingTimeInterval(120)
        while process.isRunning && Date() < started
            && ((try? FileManager.default.contentsOfDirectory(atPath: clipFolder.path))?.count ?? 0) < 2 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        try #require(process.isRunning, "the cutting ended before the signal")
        let errors = try Self.interrupt(process, errors: errorFile, goingOnWith: "cutting")

        let prefix = "trajectories: warning: stopped by SIGINT: "
        let counts = try #require(errors.last.flatMap { $0.hasPrefix(prefix) ? $0.dropFirst(prefix.count) : nil }, "\(errors)")
        #expect(counts.hasSuffix(" of \(report.trajectories.count) clips written"), "\(counts)")
        // Each clip listed is whole and readable, and no other file is left behind.
        let lines = try String(contentsOf: outputFile, encoding: .utf8).split(separator: "\n")
        #expect(counts.hasPrefix("\(lines.count) of "))
        #expect(!lines.isEmpty && lines.count < report.trajectories.count)
        let listed = lines.map { String($0.split(separator: "\t")[0]) }
        let written = try FileManager.default.contentsOfDirectory(atPath: clipFolder.path).map { clipFolder.appendingPathComponent($0).path }
        #expect(Set(written) == Set(listed))
        for line in lines {
            let fields = line.split(separator: "\t")
            let info = try CommandLineRunner.run(["info", String(fields[0])])
            let description = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
            #expect("\(description["frameCount"] as? Int ?? -1) frames" == fields[2], "\(line)")
        }
    }

    /// SampleClips/hd60-1.mp4 eight times over (stream copy): 1 328 frames of 1080p60 with a
    /// few flights in each copy.
    private static func makeLongClip(in folder: URL) throws -> (path: String, frameCount: Int) {
        let list = folder.appendingPathComponent("list.txt")
        let sample = CommandLineRunner.repositoryRoot.appendingPathComponent("SampleClips/hd60-1.mp4").path
        try String(repeating: "file '\(sample)'\n", count: 8).write(to: list, atomically: true, encoding: .utf8)
        let clip = folder.appendingPathComponent("long.mp4").path
        try FFmpeg.run(["-f", "concat", "-safe", "0", "-i", list.path, "-c", "copy", clip])
        return (clip, 8 * 166)
    }

    /// Sends SIGINT to `process`, which must then exit within 10 s with status 130 and no
    /// output; returns the lines it wrote to `errors`.
    private static func interruptExpectingNothingAnalysed(_ process: Process, errors: URL, output: URL) throws -> [Substring] {
        let lines = try interrupt(process, errors: errors, goingOnWith: "waiting for the input")
        #expect(try String(contentsOf: output, encoding: .utf8).isEmpty)
        return lines
    }

    /// Sends SIGINT to `process`, which must then exit within 10 s (not go on with `activity`)
    /// with status 130; returns the lines it wrote to `errors`.
    private static func interrupt(_ process: Process, errors: URL, goingOnWith activity: String) throws -> [Substring] {
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try #require(!process.isRunning, "the run went on \(activity) after the signal")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGINT)
        return try String(contentsOf: errors, encoding: .utf8).split(separator: "\n")
    }

    /// Starts `trajectories detect arguments…` reading a new pipe, its output and errors going
    /// to files in `folder`.
    private static func launchDetect(
        _ arguments: [String], in folder: URL
    ) throws -> (process: Process, input: Pipe, output: URL, errors: URL) {
        try launch(["detect"] + arguments, in: folder)
    }

    /// Starts `trajectories arguments…` reading a new pipe, its output and errors going to
    /// files in `folder`.
    private static func launch(
        _ arguments: [String], in folder: URL
    ) throws -> (process: Process, input: Pipe, output: URL, errors: URL) {
        let process = Process()
        process.executableURL = CommandLineRunner.executable
        process.arguments = arguments
        let input = Pipe()
        let outputFile = folder.appendingPathComponent("stdout"), errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        return (process, input, outputFile, errorFile)
    }

    /// Waits until process `pid` has read `count` bytes (its /proc `rchar`, which counts what
    /// it read from pipes and files).
    static func waitUntilRead(_ count: Int, by pid: Int32, within seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
            let read = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
                .flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if read >= count { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the run read less than \(count) bytes in \(seconds) s")
    }
}
