import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

/// FFmpeg logs through one process-wide callback; each reader must still get only its own
/// messages, and nothing reaches standard error unless asked for.
@Suite("Warnings and FFmpeg's log")
struct DiagnosticsTests {
    @Test("readers decoding at the same time on different threads keep their own warnings")
    func warningsStayWithTheirReader() async throws {
        let directory = try TemporaryDirectory()
        let clean = directory.file("clean.mp4")
        let cut = directory.file("cut.mp4")
        let scene = MovingSquare(noise: 12)
        try scene.write(to: clean, count: 40, settings: quickSettings(crf: 23))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clean))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))

        let results = try await withThrowingTaskGroup(of: (String, Int, [String]).self) { group in
            for round in 0..<6 {
                let path = round.isMultiple(of: 2) ? clean : cut
                group.addTask {
                    let (_, frames, warnings) = try decodeAll(path)
                    return (path, frames.count, warnings)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 6)
        for (path, frames, warnings) in results {
            if path == clean {
                #expect(frames == 40)
                #expect(warnings.isEmpty, "\(warnings)")
            } else {
                #expect(frames < 40)
                #expect(warnings.contains { $0.hasPrefix("the file ends early") }, "\(warnings)")
            }
        }
    }

    @Test("a cut H.264 file's damage is told once, named by its codec, though its parser and its decoder both log it")
    func parserAndDecoderMessagesAreOne() throws {
        let directory = try TemporaryDirectory()
        let clean = directory.file("clean.mp4")
        let cut = directory.file("cut.mp4")
        try MovingSquare(noise: 12).write(to: clean, count: 40, settings: quickSettings(crf: 23))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clean))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))

        let (_, _, warnings) = try decodeAll(cut)
        let cutNAL = warnings.filter { $0.contains("Invalid NAL unit size") }
        #expect(cutNAL.count == 1 && cutNAL[0].hasPrefix("h264: "), "\(warnings)")
        // The demuxer's parser logs through a codec context given no codec: unnamed, its lines
        // used to come out beside the decoder's named ones.
        let unnamed = warnings.filter { $0.hasPrefix("Invalid NAL") || $0.hasPrefix("missing picture") }
        #expect(unnamed.isEmpty, "\(warnings)")
    }

    @Test("FFmpeg prints nothing by default, and its own lines when the echo level asks for them",
          arguments: [FFmpegLog.Level.quiet, .error])
    func echo(level: FFmpegLog.Level) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("broken.mp4")
        try Data("not a video at all, but named like one".utf8).write(to: URL(fileURLWithPath: path))

        // The echo level is process-wide: set it in a child process, not in the test runner.
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [path = path as String, level = level.rawValue as Int32] in
            FFmpegLog.echoLevel = FFmpegLog.Level(rawValue: level)!
            do throws(VideoError) {
                _ = try VideoReader(uri: path)
                exit(EXIT_FAILURE)
            } catch {
                guard error.detail == "mov: moov atom not found" else { exit(EXIT_FAILURE) }
            }
        }

        let printed = String(decoding: result.standardErrorContent, as: UTF8.self)
        if level == .quiet {
            #expect(printed.isEmpty, "\(printed)")
        } else {
            #expect(printed.contains("moov atom not found"), "\(printed)")
        }
    }
}
