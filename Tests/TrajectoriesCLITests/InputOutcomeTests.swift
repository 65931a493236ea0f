import Foundation
import TestSupport
import Testing
import TrajectoryKit

/// Every kind of input a pipeline may feed `trajectories detect`, each with its documented
/// outcome (README, "What happens with bad input"): either results, as valid JSON holding the
/// frames that could be decoded (with a warning when the input is damaged), or one clear line on
/// standard error and exit status 1. Never a signal, never a hang: each run is killed, and
/// fails, after a time limit.
///
/// The media are generated at test time with the ffmpeg command line, in a temporary folder:
/// a white ball thrown across a grey frame (`ThrownBallClip`), encoded in each format.
@Suite struct InputOutcomeTests {
    /// What `detect` must do with an input.
    enum Expected: CustomStringConvertible {
        /// Exit 1, nothing on stdout, exactly one line on stderr that names the input and
        /// contains `reason`.
        case fails(reason: String)
        /// Exit 0, valid JSON with `frames` decoded frames (a range: damaged inputs lose some),
        /// at least `trajectories` trajectories, and warnings on stderr exactly when `warns`: the
        /// input is damaged, or too short to hold a trajectory.
        case succeeds(frames: ClosedRange<Int>, trajectories: Int = 0, warns: Bool = false)

        var description: String {
            switch self {
            case .fails(let reason): "fails: \(reason)"
            case .succeeds(let frames, let trajectories, let warns):
                "\(frames) frames, ≥ \(trajectories) trajectories\(warns ? ", with a warning" : "")"
            }
        }
    }

    /// One input of the list, made in `folder`; `arguments` follow `detect`.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let expected: @Sendable () -> Expected
        let make: @Sendable (URL) throws -> (arguments: [String], standardInput: URL?)
        var testDescription: String { name }

        init(
            _ name: String, _ expected: @autoclosure @escaping @Sendable () -> Expected,
            make: @escaping @Sendable (URL) throws -> (arguments: [String], standardInput: URL?)
        ) {
            self.name = name
            self.expected = expected
            self.make = make
        }

        /// A case whose input is one file made by `file`.
        init(_ name: String, _ expected: @autoclosure @escaping @Sendable () -> Expected, file: @escaping @Sendable (URL) throws -> URL) {
            self.init(name, expected()) { folder in ([try file(folder).path], nil) }
        }
    }

    static let ball = ThrownBallClip()
    /// Frames of the generated clips: the ball's whole flight.
    static let frames = ball.frameCount

    static let cases: [Case] = [
        Case("a missing path", .fails(reason: "no such file")) { $0.appendingPathComponent("missing.mp4") },
        Case("a directory", .fails(reason: "Is a directory")) { folder in
            let directory = folder.appendingPathComponent("clips.mp4")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            return directory
        },
        Case("an empty file", .fails(reason: "is empty")) { try write(Data(), to: $0, as: "empty.mp4") },
        Case("an empty file given as a file: URL", .fails(reason: "is empty")) { folder in
            (["file:" + (try write(Data(), to: folder, as: "empty.mp4")).path], nil)
        },
        Case("a text file", .fails(reason: "is not a video")) {
            try write(Data("notes, not a video\n".utf8), to: $0, as: "notes.txt")
        },
        Case("random bytes", .fails(reason: "is not a video")) { folder in
            // Seeded: some random bytes happen to look like an MP3 frame to FFmpeg's probe.
            var generator = LinearCongruentialBytes(seed: 5)
            return try write(Data((0..<65_536).map { _ in generator.next() }), to: folder, as: "noise.mp4")
        },
        Case("an audio-only file with a video's extension", .fails(reason: "has no video stream")) { folder in
            let file = folder.appendingPathComponent("song.mp4")
            try FFmpeg.run(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", file.path])
            return file
        },
        Case("an MKV whose header names a codec FFmpeg does not know", .fails(reason: "names none FFmpeg knows")) { folder in
            let file = try ball.make(in: folder, named: "unknown.mkv", options: ThrownBallClip.h264)
            var bytes = try Data(contentsOf: file)
            let codecID = try #require(bytes.range(of: Data("V_MPEG4/ISO/AVC".utf8)), "the MKV names its codec")
            bytes.replaceSubrange(codecID, with: Data("V_NO/SUCH/CODEC".utf8))
            return try write(bytes, to: folder, as: "unknown.mkv")
        },
        // The slow-motion note waits for an analysed frame: none comes, so the error is the one line.
        Case("a slow-motion (240 fps) MP4 whose coded frames are all zeroed", .fails(reason: "no frame could be decoded")) { folder in
            let file = try ThrownBallClip(frameRate: 240).make(in: folder, named: "blank.mp4", options: ThrownBallClip.h264)
            var bytes = try Data(contentsOf: file)
            let mdat = try #require(bytes.range(of: Data("mdat".utf8)), "an MP4 holds its frames in an mdat box")
            let size = bytes[(mdat.lowerBound - 4)..<mdat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
            bytes.replaceSubrange(mdat.upperBound..<(mdat.lowerBound - 4 + size), with: Data(count: size - 8))
            return try write(bytes, to: folder, as: "blank.mp4")
        },
        Case("a single still image", .succeeds(frames: 1...1, warns: true)) { folder in
            try ball.make(in: folder, named: "still.png", frames: 1, options: [])
        },
        Case("an MP4 cut in half, index first", .succeeds(frames: 5...(frames - 5), warns: true)) { folder in
            try halve(ball.make(in: folder, named: "faststart.mp4", options: ThrownBallClip.h264 + ["-movflags", "+faststart"]))
        },
        Case("an MP4 cut in half, index at the end (lost with the second half)", .fails(reason: "is not a video")) { folder in
            try halve(ball.make(in: folder, named: "phone.mp4", options: ThrownBallClip.h264))
        },
        Case("an MPEG-TS cut short", .succeeds(frames: 5...(frames - 5), warns: true)) { folder in
            try halve(ball.make(in: folder, named: "stream.ts", options: ThrownBallClip.h264))
        },
        Case("an MPEG-TS spliced from two, its timestamps going back at the join", .succeeds(frames: (2 * frames)...(2 * frames), trajectories: 2, warns: true)) { folder in
            let part = try Data(contentsOf: ball.make(in: folder, named: "part.ts", options: ThrownBallClip.h264))
            return try write(part + part, to: folder, as: "spliced.ts")
        },
        Case("an H.264 stream with corrupt bytes in the middle", .succeeds(frames: (frames / 2)...frames, warns: true)) { folder in
            let file = try ball.make(in: folder, named: "damaged.h264", options: ThrownBallClip.h264 + ["-g", "10"])
            var bytes = try Data(contentsOf: file)
            var generator = LinearCongruentialBytes(seed: 11)
            for offset in (bytes.count / 2)..<(bytes.count / 2 + 1_000) { bytes[offset] = generator.next() }
            try bytes.write(to: file)
            return file
        },
        Case("an H.264 stream whose first 6 MB lack the parameter sets to decode them", .succeeds(frames: frames...frames, warns: true)) { folder in
            // As a capture joined mid-broadcast: FFmpeg's probe (its first 5 MB) decodes no frame,
            // so the stream states no size, and the frames after it must give it.
            try joinedMidBroadcast(in: folder)
        },
        Case("16×16 frames", .succeeds(frames: frames...frames)) { folder in
            try ThrownBallClip(width: 16, height: 16).make(in: folder, named: "tiny.mp4", options: ThrownBallClip.h264)
        },
        Case("4K frames", .succeeds(frames: 3...3, warns: true)) { folder in
            try ThrownBallClip(width: 3840, height: 2160).make(in: folder, named: "uhd.mp4", frames: 3, options: ThrownBallClip.h264)
        },
        Case("odd sizes (641×361)", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ThrownBallClip(width: 641, height: 361).make(
                in: folder, named: "odd.mkv", options: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv444p"])
        },
        Case("10-bit H.264", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ball.make(in: folder, named: "ten-bit.mkv", options: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le"])
        },
        Case("MPEG-4 Part 2", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ball.make(in: folder, named: "part2.avi", options: ["-c:v", "mpeg4", "-q:v", "3"])
        },
        Case("VP9", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ball.make(in: folder, named: "clip.webm", options: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "20", "-b:v", "0"])
        },
        Case("an animated GIF", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ball.make(in: folder, named: "throw.gif", options: [])
        },
        Case("raw BGR frames", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ball.make(in: folder, named: "raw.avi", options: ["-c:v", "rawvideo", "-pix_fmt", "bgr24"])
        },
        Case("a phone video with a 90° rotation flag", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            try ball.makePhoneVideo(in: folder)
        },
        Case("variable frame rate with a gap", .succeeds(frames: frames...frames)) { folder in
            // Two seconds without frames after frame 20: a camera that paused.
            try ball.make(
                in: folder, named: "gap.mkv", filter: "setpts='if(gt(N,19),PTS+2/TB,PTS)'",
                options: ThrownBallClip.h264 + ["-fps_mode", "passthrough"])
        },
        Case("an AVI whose writer dropped a frame: its header lists one more frame than it holds", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            // AVI counts time slots; the slot of the dropped frame is empty, and nothing is missing.
            try ball.make(
                in: folder, named: "dropped.avi", filter: "select='not(eq(n\\,10))'",
                options: ["-c:v", "mjpeg", "-q:v", "3", "-fps_mode", "passthrough"])
        },
        Case("a static clip", .succeeds(frames: frames...frames)) { folder in
            try ThrownBallClip(throws: false).make(in: folder, named: "static.mp4", options: ThrownBallClip.h264)
        },
        Case("standard input (-)", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            (["-"], try ball.make(in: folder, named: "piped.ts", options: ThrownBallClip.h264))
        },
        Case("an MP4 with its index first on standard input", .succeeds(frames: frames...frames, trajectories: 1)) { folder in
            (["-"], try ball.make(in: folder, named: "piped.mp4", options: ThrownBallClip.h264 + ["-movflags", "+faststart"]))
        },
        Case(
            "an MP4 with its index at the end on standard input (a pipe cannot seek back to the frames)",
            .fails(reason: "its index (moov) comes after its frames, and this input cannot seek back to them; give the file's path")
        ) { folder in
            (["-"], try ball.make(in: folder, named: "piped.mp4", options: ThrownBallClip.h264))
        },
        Case("a network URL that cannot connect", .fails(reason: "tcp://127.0.0.1:9")) { _ in
            (["tcp://127.0.0.1:9", "--network-timeout", "2"], nil)
        },
    ]

    @Test("each input gives its documented outcome, without a signal or a hang", arguments: cases)
    func outcome(of input: Case) throws {
        let folder = try TestFolder.fresh()
        let (arguments, standardInput) = try input.make(folder)
        let outcome = try CommandLineRunner.run(["detect"] + arguments, standardInput: standardInput, timeLimit: 120)
        try #require(!outcome.timedOut, "hung")
        try #require(!outcome.diedOfSignal, "crashed: \(outcome.standardError)")
        switch input.expected() {
        case .fails(let reason):
            #expect(outcome.status == 1)
            #expect(outcome.standardOutput.isEmpty)
            #expect(outcome.errorLines.count == 1, "\(outcome.errorLines)")
            let line = try #require(outcome.errorLines.first)
            #expect(line.hasPrefix("trajectories: error: "))
            #expect(line.contains(reason), "\(line)")
            #expect(line.contains(arguments[0]))
        case .succeeds(let frames, let trajectories, let warns):
            #expect(outcome.status == 0, "\(outcome.errorLines)")
            let json = try JSONValue.parse(outcome.standardOutput)
            #expect(try DetectCommandTests.schema("trajectories.schema.json").violations(of: json) == [])
            let report = try DetectCommandTests.report(outcome)
            #expect(frames.contains(report.source.frameCount), "decoded \(report.source.frameCount) frames")
            #expect(report.trajectories.count >= trajectories)
            #expect(outcome.errorLines.allSatisfy { $0.hasPrefix("trajectories: warning: ") })
            #expect(outcome.errorLines.isEmpty == !warns, "\(outcome.errorLines)")
            #expect(report.warnings.isEmpty == !warns)
        }
    }

    @Test("an MPEG-TS cut part way through a packet, on standard input or as a file, says it was cut short", arguments: [true, false])
    func transportStreamCutShort(piped: Bool) throws {
        let folder = try TestFolder.fresh()
        let bytes = try Data(contentsOf: Self.ball.make(in: folder, named: "whole.ts", options: ThrownBallClip.h264))
        let cut = try Self.write(bytes.prefix(bytes.count / 2 / 188 * 188 + 60), to: folder, as: "cut.ts")
        let outcome = try CommandLineRunner.run(
            ["detect", piped ? "-" : cut.path], standardInput: piped ? cut : nil, timeLimit: 120)
        #expect(outcome.status == 0, "\(outcome.errorLines)")
        let report = try DetectCommandTests.report(outcome)
        #expect((5...(Self.frames - 5)).contains(report.source.frameCount), "decoded \(report.source.frameCount) frames")
        let warning = "the input ends part way through a transport-stream packet, as one cut short does: its last frames may be missing"
        #expect(outcome.errorLines.contains("trajectories: warning: " + warning), "\(outcome.errorLines)")
        #expect(report.warnings.contains(warning))
    }

    @Test("names FFmpeg would take for URLs (12:30.mp4, take:1.png) are read and written as the local files they are")
    func colonsInNames() throws {
        let folder = try TestFolder.fresh()
        let clip = try Self.ball.make(in: folder, named: "thrown.mp4", options: ThrownBallClip.h264)
        try FileManager.default.moveItem(at: clip, to: folder.appendingPathComponent("12:30.mp4"))
        // Bare names, as typed in the clip's folder: FFmpeg reads "12" and "take" as protocols.
        let detected = try CommandLineRunner.run(
            ["detect", "12:30.mp4", "-o", "take:1.json", "--overlay", "take:1.mp4", "--snapshot", "take:1.png"], in: folder)
        #expect(detected.status == 0 && detected.errorLines.isEmpty, "\(detected.errorLines)")
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: folder.appendingPathComponent("take:1.json")))
        #expect(report.source.frameCount == Self.frames && report.trajectories.count == 1)
        let overlay = try CommandLineRunner.run(["info", "take:1.mp4"], in: folder)
        #expect(overlay.status == 0 && overlay.standardOutput.contains("\"frameCount\" : \(Self.frames)"), "\(overlay.errorLines)")
        let snapshot = try Data(contentsOf: folder.appendingPathComponent("take:1.png"))
        #expect(snapshot.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let cut = try CommandLineRunner.run(["clips", "12:30.mp4", "--result", "take:1.json", "--out", "cut:1"], in: folder)
        #expect(cut.status == 0 && cut.errorLines.isEmpty, "\(cut.errorLines)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cut:1").path)
        #expect(written.count == 1)
        for name in written {
            #expect(try CommandLineRunner.run(["info", "cut:1/" + name], in: folder).status == 0)
        }
    }

    @Test("slow motion (240 frames a second) is analysed one frame in 8, said on stderr and in the JSON: the whole flight is one trajectory; --spacing 0 still analyses every frame")
    func slowMotion() throws {
        let folder = try TestFolder.fresh()
        let ball = ThrownBallClip(width: 1280, height: 720, frameRate: 240)
        let clip = try ball.make(in: folder, named: "slow-motion.mp4", options: ThrownBallClip.h264)

        let outcome = try CommandLineRunner.run(["detect", clip.path])
        let report = try DetectCommandTests.report(outcome)
        #expect(report.source.frameCount == ball.frameCount)
        #expect(report.request.frameAnalysisSpacing == 7.5 / 240)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.standardError.contains("slow motion, one frame in 8") && outcome.standardError.contains("--spacing 0"))
        try #require(report.trajectories.count == 1, "\(report.trajectories.map(\.points.count))")
        let frames = report.trajectories[0].points.map(\.frame)
        // From the fourth analysed frame (motion needs three before it) to the flight's end.
        let first = try #require(frames.first), last = try #require(frames.last)
        #expect(first <= 24 && last >= ball.frameCount - 8, "frames \(first)–\(last)")
        #expect(frames.allSatisfy { $0.isMultiple(of: 8) })
        #expect(Double(frames.count) >= 0.9 * Double(last - first) / 8, "\(frames.count) points")

        // Asked for every frame, it analyses every frame (and finds only the flight's end).
        let everyFrame = try CommandLineRunner.run(["detect", clip.path, "--spacing", "0"])
        let everyFrameReport = try DetectCommandTests.report(everyFrame)
        #expect(everyFrameReport.request.frameAnalysisSpacing == 0)
        #expect(everyFrame.standardError.isEmpty)
        let points = everyFrameReport.trajectories.flatMap(\.points).map(\.frame)
        #expect(zip(points, points.dropFirst()).contains { $1 == $0 + 1 })
    }

    @Test("info on a stream that states no size gives it from the first frame it can decode")
    func infoOfAStreamWithoutStatedSize() throws {
        let folder = try TestFolder.fresh()
        let outcome = try CommandLineRunner.run(["info", Self.joinedMidBroadcast(in: folder).path])
        #expect(outcome.status == 0, "\(outcome.errorLines)")
        let info = try JSONDecoder().decode([String: JSONValue].self, from: Data(outcome.standardOutput.utf8))
        #expect(info["width"] == .number(Double(Self.ball.width)) && info["height"] == .number(Double(Self.ball.height)))
        #expect(info["pixelFormat"] == .string("yuv420p"))
    }

    @Test("a phone video stored sideways with a 90° flag is analysed as shown: same flight as the upright clip")
    func rotation() throws {
        let folder = try TestFolder.fresh()
        let upright = try DetectCommandTests.report(CommandLineRunner.run([
            "detect", Self.ball.make(in: folder, named: "upright.mp4", options: ThrownBallClip.h264).path,
        ]))
        let phone = try DetectCommandTests.report(CommandLineRunner.run(["detect", Self.ball.makePhoneVideo(in: folder).path]))
        #expect(phone.source.width == Self.ball.width && phone.source.height == Self.ball.height)
        #expect(phone.source.rotation == 90)
        try #require(phone.trajectories.count == 1 && upright.trajectories.count == 1)
        let pairs = zip(phone.trajectories[0].points, upright.trajectories[0].points)
        #expect(phone.trajectories[0].points.count == upright.trajectories[0].points.count)
        // Encoding differs (the frames are stored turned), so the centres agree to within a pixel.
        #expect(pairs.allSatisfy { abs($0.x - $1.x) * 320 < 1 && abs($0.y - $1.y) * 240 < 1 })
    }

    @Test("a gap in the frame times is kept in the results: times are the frames' own")
    func timeGap() throws {
        let folder = try TestFolder.fresh()
        let file = try Self.ball.make(
            in: folder, named: "gap.mkv", filter: "setpts='if(gt(N,19),PTS+2/TB,PTS)'",
            options: ThrownBallClip.h264 + ["-fps_mode", "passthrough"])
        let report = try DetectCommandTests.report(CommandLineRunner.run(["detect", file.path]))
        #expect(report.source.duration > 3)
        let points = report.trajectories.flatMap(\.points)
        try #require(!points.isEmpty)
        // Each point carries its frame's own time: two seconds later from frame 20 on.
        for point in points {
            let expected = Double(point.frame) / report.source.frameRate + (point.frame >= 20 ? 2 : 0)
            #expect(abs(point.time - expected) < 1e-3, "frame \(point.frame) at \(point.time) s")
        }
        let times = points.map(\.time)
        // No trajectory spans the gap: the ball's flight is broken by two seconds.
        for trajectory in report.trajectories {
            let pointTimes = trajectory.points.map(\.time)
            #expect(zip(pointTimes, pointTimes.dropFirst()).allSatisfy { $1 - $0 < 1 }, "\(times)")
        }
    }

    @Test("frames larger than --max-frame-pixels are refused in one line naming the flag")
    func frameSizeLimit() throws {
        let folder = try TestFolder.fresh()
        let file = try Self.ball.make(in: folder, named: "clip.mp4", frames: 5, options: ThrownBallClip.h264)
        let refused = try CommandLineRunner.run(["detect", file.path, "--max-frame-pixels", "10000"])
        #expect(refused.status == 1 && refused.standardOutput.isEmpty)
        #expect(refused.errorLines == [
            "trajectories: error: cannot read '\(file.path)': its 320×240 frames exceed the limit of 10000 pixels per frame; "
                + "--max-frame-pixels raises the limit",
        ])
        #expect(try CommandLineRunner.run(["detect", file.path, "--max-frame-pixels", "76800"]).status == 0)
        // Beyond the largest limit FFmpeg itself takes (2³¹ − 1 pixels): no complaint from it.
        let unlimited = try CommandLineRunner.run(["detect", file.path, "--max-frame-pixels", "4000000000"])
        #expect(unlimited.status == 0 && !unlimited.standardError.contains("max_pixels"), "\(unlimited.errorLines)")
    }

    /// A refusal must come before FFmpeg decodes a picture of the refused size: a hostile or
    /// mistaken header can claim one as large as the codec allows. An 8K picture takes 50 MB
    /// in 8-bit 4:2:0, several times over with frame threading; probing the input used to
    /// decode one before the limit was checked.
    @Test("refusing an 8K video under the frame size limit does not decode its pictures")
    func refusalDecodesNoOversizedPicture() throws {
        let folder = try TestFolder.fresh()
        let runs = try Self.comparePeakMemory(
            of: { ["detect", $0, "--max-frame-pixels", "10000"] }, largeSource: "testsrc2=size=7680x4320:rate=30", frames: 2, in: folder)
        #expect(runs.small.outcome.status == 1 && runs.large.outcome.status == 1)
        #expect(runs.large.outcome.errorLines == [
            "trajectories: error: cannot read '\(runs.largePath)': its 7680×4320 frames exceed the limit of 10000 pixels per frame; "
                + "--max-frame-pixels raises the limit",
        ])
        // Measured: 12 MB more than refusing a 320×240 clip (the input's first packets), and
        // 79 MB more while probing decoded a picture.
        #expect(runs.extraMegabytes < 32, "peak \(runs.large.peakKilobytes) KB against \(runs.small.peakKilobytes) KB")
    }

    /// `info` has no limit to refuse by, since describing any video is its job, but FFmpeg's
    /// probe still must not decode a picture of whatever size a header claims: a 16 000 ×
    /// 16 000 stream took 680 MB to describe, and takes 167 MB now.
    @Test("info describes a video over the frame size limit from its headers, without decoding its pictures")
    func infoDecodesNoOversizedPicture() throws {
        let folder = try TestFolder.fresh()
        // 67 million pixels: just over twice the default limit (8K), what FFmpeg may decode.
        let runs = try Self.comparePeakMemory(
            of: { ["info", $0] }, largeSource: "color=c=gray:size=8200x8200:rate=30", frames: 1, in: folder)
        #expect(runs.small.outcome.status == 0 && runs.large.outcome.status == 0)
        #expect(runs.large.outcome.standardError.isEmpty, "\(runs.large.outcome.errorLines)")
        let info = try JSONDecoder().decode([String: JSONValue].self, from: Data(runs.large.outcome.standardOutput.utf8))
        #expect(info["width"] == .number(8200) && info["height"] == .number(8200) && info["pixelFormat"] == .string("yuv420p"))
        // Measured: 19 MB more than describing a 320×240 clip, and 155 MB more while probing
        // decoded the picture.
        #expect(runs.extraMegabytes < 60, "peak \(runs.large.peakKilobytes) KB against \(runs.small.peakKilobytes) KB")
    }

    /// Runs the command `arguments(path)` gives on a 320×240 clip of the thrown ball and on a
    /// clip of `frames` frames from the FFmpeg source `largeSource`, each in a process of its
    /// own, and says how much higher the large one's memory peaked.
    static func comparePeakMemory(
        of arguments: (String) -> [String], largeSource: String, frames: Int, in folder: URL
    ) throws -> (small: CommandLineRunner.MeasuredRun, large: CommandLineRunner.MeasuredRun, largePath: String, extraMegabytes: Double) {
        let small = try Self.ball.make(in: folder, named: "small.mp4", frames: 5, options: ThrownBallClip.h264)
        let large = folder.appendingPathComponent("large.mp4")
        try FFmpeg.run(["-f", "lavfi", "-i", largeSource, "-frames:v", "\(frames)"] + ThrownBallClip.h264 + [large.path])
        let smallRun = try CommandLineRunner.runMeasuringPeakMemory(arguments(small.path), outputFolder: folder)
        let largeRun = try CommandLineRunner.runMeasuringPeakMemory(arguments(large.path), outputFolder: folder)
        return (smallRun, largeRun, large.path, Double(largeRun.peakKilobytes - smallRun.peakKilobytes) / 1024)
    }

    static func write(_ data: Data, to folder: URL, as name: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// The thrown ball as a raw H.264 stream led by 6 MB of its own slices without the
    /// parameter sets to decode them: more than FFmpeg's probe reads, so the stream states no
    /// size, and its frames after the lead give it.
    static func joinedMidBroadcast(in folder: URL) throws -> URL {
        let clip = try Data(contentsOf: ball.make(in: folder, named: "clip.h264", options: ThrownBallClip.h264))
        return try write(undecodableLead(from: clip) + clip, to: folder, as: "joined.h264")
    }

    /// At least `count` bytes of `clip`'s slices, repeated, without their parameter sets.
    static func undecodableLead(from clip: Data, count: Int = 6_000_000) -> Data {
        let undecodable = removingParameterSets(from: clip)
        return (0..<(count / undecodable.count + 1)).reduce(into: Data()) { joined, _ in joined += undecodable }
    }

    /// The H.264 Annex B stream `data` without its sequence and picture parameter sets (NAL
    /// units of types 7 and 8): slices no decoder can read until another stream supplies them.
    static func removingParameterSets(from data: Data) -> Data {
        let bytes = [UInt8](data)
        var unitStarts: [Int] = []
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0 && bytes[index + 1] == 0 && bytes[index + 2] == 1 {
                unitStarts.append(index)
                index += 3
            } else {
                index += 1
            }
        }
        var kept = Data()
        for (number, start) in unitStarts.enumerated() {
            let end = number + 1 < unitStarts.count ? unitStarts[number + 1] : bytes.count
            let unitType = bytes[start + 3] & 0x1f
            if unitType != 7 && unitType != 8 { kept.append(contentsOf: bytes[start..<end]) }
        }
        return kept
    }

    /// Cuts `file` to its first half, as an interrupted upload leaves it.
    static func halve(_ file: URL) throws -> URL {
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        return file
    }
}

/// A white ball thrown across a plain grey frame, rendered and encoded by the ffmpeg command
/// line: it rises from the lower left, peaks and falls, under a constant downward acceleration.
struct ThrownBallClip: Sendable {
    var width = 320
    var height = 240
    /// False renders the grey frame alone: nothing moves.
    var `throws` = true
    var frameRate = 30
    /// The flight's length: 1.2 s.
    var frameCount: Int { 36 * frameRate / 30 }

    static let h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]

    /// Renders `frames` frames into `folder/name`, through the extra `filter` when given, encoded
    /// with `options`; the container follows the name's extension.
    func make(in folder: URL, named name: String, frames: Int? = nil, filter: String? = nil, options: [String]) throws -> URL {
        let file = folder.appendingPathComponent(name)
        let diameter = max(2, width / 27)
        let radius = Double(diameter) / 2
        // Noise in every frame, so frames code to realistic sizes and a cut lands inside them.
        let background = "color=c=0x606060:size=\(width)x\(height):rate=\(frameRate),noise=alls=12:allf=t"
        var graph = background + "[bg];"
            + "color=c=white:size=\(diameter)x\(diameter):rate=\(frameRate),format=yuva420p,"
            + "geq=lum='p(X,Y)':a='if(lt(hypot(X+0.5-\(radius),Y+0.5-\(radius)),\(radius)),255,0)'[ball];"
            // x in frame widths, y in frame heights from the top; t in seconds.
            + "[bg][ball]overlay=x='W*(0.1+0.6*t)':y='H*(0.8-1.4*t+1.1*t*t)':eval=frame"
        if !self.throws { graph = background }
        if let filter { graph += "," + filter }
        try FFmpeg.run(["-f", "lavfi", "-i", graph, "-frames:v", String(frames ?? frameCount)] + options + [file.path])
        return file
    }
}

extension ThrownBallClip {
    /// The clip as a phone held upright records it: frames stored a quarter turn
    /// anticlockwise, with a display matrix telling players to turn them back clockwise.
    func makePhoneVideo(in folder: URL) throws -> URL {
        let file = try make(in: folder, named: "phone.mp4", filter: "transpose=2", options: Self.h264)
        var bytes = try Data(contentsOf: file)
        // ffmpeg 5.1's command line cannot set a display matrix; write it into the track header
        // (tkhd, version 0): after the box type come 4 bytes of version and flags, 20 of times,
        // id and duration, 8 reserved, 8 of layer, group and volume, then the 3×3 matrix.
        let header = try #require(bytes.firstRange(of: Data("tkhd".utf8)))
        try #require(bytes[header.upperBound] == 0, "a version 0 track header")
        let matrix: [Int32] = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x4000_0000]
        let start = header.upperBound + 40
        for (index, value) in matrix.enumerated() {
            withUnsafeBytes(of: value.bigEndian) { bytes.replaceSubrange((start + 4 * index)..<(start + 4 * index + 4), with: $0) }
        }
        try bytes.write(to: file)
        return file
    }
}

/// The same pseudo-random bytes on every run (Knuth's MMIX linear congruential generator, top byte).
struct LinearCongruentialBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(state >> 56)
    }
}
