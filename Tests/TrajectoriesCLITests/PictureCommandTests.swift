import Foundation
import Glibc
import Testing
import TrajectoryDrawing
import TrajectoryKit
import TrajectoryVideo
import TestSupport

/// `detect --overlay`, `detect --snapshot` and `clips`, run as a user runs them, their
/// outputs decoded and checked against the JSON result.
@Suite struct PictureCommandTests {
    static func sample(_ name: String) -> String {
        CommandLineRunner.repositoryRoot.appendingPathComponent("SampleClips/\(name)").path
    }

    static func report(_ outcome: CommandLineRunner.Outcome) throws -> TrajectoryReport {
        try JSONDecoder().decode(TrajectoryReport.self, from: Data(outcome.standardOutput.utf8))
    }

    /// Every frame of `path` in colour, with its time.
    static func decodeAll(_ path: String) throws -> [(picture: YUVPicture, time: Double)] {
        var reader = try PictureReader(uri: path)
        var frames: [(YUVPicture, Double)] = []
        var picture = YUVPicture(width: 1, height: 1)
        while let frame = try reader.next(into: &picture) { frames.append((picture, frame.stamp.time)) }
        return frames
    }

    /// Whether a pixel within `radius` pixels of `point` passes `test`.
    static func found(near point: PixelPoint, radius: Int = 2, in picture: YUVPicture, _ test: (RGBColour) -> Bool) -> Bool {
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= radius * radius {
                let x = Int(point.x) + dx, y = Int(point.y) + dy
                guard x >= 0, y >= 0, x < picture.width, y < picture.height else { continue }
                if test(picture.encoding.rgb(picture.colour(x: x, y: y))) { return true }
            }
        }
        return false
    }

    // After H.264 at 4:2:0 the drawn colours keep a clear dominant channel.
    static func isRed(_ c: RGBColour) -> Bool { Int(c.red) > Int(c.green) + 80 && Int(c.red) > Int(c.blue) + 80 }
    static func isGreen(_ c: RGBColour) -> Bool { Int(c.green) > Int(c.red) + 80 && Int(c.green) > Int(c.blue) + 80 }

    @Test("the overlay has the input's frames at the input's times, red on every detected point in its frame, green on the fit",
          arguments: ["clean-1.mp4", "bounce-1.mp4"])
    func overlay(clip: String) throws {
        let folder = try TestFolder.fresh()
        let overlayPath = folder.appendingPathComponent("overlay.mp4").path
        let outcome = try CommandLineRunner.run(["detect", Self.sample(clip), "--overlay", overlayPath])
        #expect(outcome.status == 0)
        #expect(outcome.standardError.isEmpty)
        let report = try Self.report(outcome)
        try #require(!report.trajectories.isEmpty)

        let input = try Self.decodeAll(Self.sample(clip))
        let overlay = try Self.decodeAll(overlayPath)
        #expect(overlay.count == input.count && overlay.count == report.source.frameCount)
        for (drawn, original) in zip(overlay, input) {
            #expect(abs(drawn.time - original.time) < 1e-4)
            #expect(drawn.picture.width == original.picture.width && drawn.picture.height == original.picture.height)
        }

        let size = (width: report.source.width, height: report.source.height)
        let style = OverlayStyle(width: size.width, height: size.height)
        for trajectory in report.trajectories {
            for point in trajectory.points {
                let pixel = NormalizedPoint(x: point.x, y: point.y).pixels(width: size.width, height: size.height)
                #expect(Self.found(near: pixel, in: overlay[point.frame].picture, Self.isRed), "point of frame \(point.frame)")
            }
            // The final fit, on the last point's frame, between the dots of the points it was fitted to.
            let last = overlay[trajectory.points.last!.frame].picture
            let dots = trajectory.detectedPoints.map { NormalizedPoint(x: $0.x, y: $0.y).pixels(width: size.width, height: size.height) }
            let xs = trajectory.detectedPoints.map(\.x)
            var curve: [PixelPoint] = []
            ParabolaPath.sample(trajectory.equationCoefficients, from: xs.min()!, to: xs.max()!,
                                width: size.width, height: size.height, into: &curve)
            // Where the curve is not under a dot (the dots are drawn over it).
            let clearance = style.dotRadius + 1.5
            let clear = Self.densified(curve).filter { sample in dots.allSatisfy { Self.distance($0, sample) > clearance } }
            try #require(clear.count >= 3, "the fit must show somewhere between the dots")
            let green = clear.filter { Self.found(near: $0, in: last, Self.isGreen) }
            // Compression may smear a sample or two where the curve crosses a dot's edge.
            let share = Double(green.count) / Double(clear.count)
            #expect(share >= 0.9, "only \(green.count) of \(clear.count) curve samples are green")
        }
    }

    @Test("the snapshot is a PNG at the displayed size, also for a rotated video", arguments: [0, 90])
    func snapshot(rotation: Int) throws {
        let folder = try TestFolder.fresh()
        let input = folder.appendingPathComponent("input.mp4").path
        // A coded 160 × 96 picture with a bright square in its top-left corner.
        var image = LumaImage(width: 160, height: 96, fill: 60)
        for y in 0..<16 { for x in 0..<16 { image[x, y] = 230 } }
        var writer = try VideoWriter(path: input, width: 160, height: 96,
                                     settings: VideoWriter.Settings(crf: 10, preset: "ultrafast", rotation: rotation))
        for _ in 0..<12 { try writer.append(image) }
        try writer.finish()

        let png = folder.appendingPathComponent("still.png").path
        let overlay = folder.appendingPathComponent("overlay.mp4").path
        let outcome = try CommandLineRunner.run(["detect", input, "--snapshot", png, "--overlay", overlay])
        #expect(outcome.status == 0)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let displayed = rotation == 90 ? (width: 96, height: 160) : (width: 160, height: 96)
        var still = try PictureReader(uri: png)
        #expect(still.info.width == displayed.width && still.info.height == displayed.height)
        var picture = YUVPicture(width: 1, height: 1)
        _ = try #require(try still.next(into: &picture))
        // The bright square is where a player shows it: top right once turned a quarter clockwise.
        let corner = rotation == 90 ? (x: displayed.width - 8, y: 8) : (x: 8, y: 8)
        #expect(picture.colour(x: corner.x, y: corner.y).y > 180)
        #expect(picture.colour(x: displayed.width / 2, y: displayed.height / 2).y < 110)
        // The overlay is stored upright: no display rotation left to apply.
        let video = try PictureReader(uri: overlay)
        #expect(video.info.rotation == 0 && video.info.width == displayed.width && video.info.height == displayed.height)
    }

    @Test("clips cover their trajectories' time ranges, stream-copied or re-encoded", arguments: [0.0, 0.2, 3.0])
    func clips(margin: Double) throws {
        let folder = try TestFolder.fresh()
        let clip = Self.sample("bounce-1.mp4")
        let resultPath = folder.appendingPathComponent("R.json").path
        #expect(try CommandLineRunner.run(["detect", clip, "--output", resultPath]).status == 0)
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: resultPath)))
        try #require(report.trajectories.count >= 2)

        let out = folder.appendingPathComponent("clips/nested").path  // missing: created
        let outcome = try CommandLineRunner.run(["clips", clip, "--result", resultPath, "--out", out, "--margin", String(margin)])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.split(separator: "\n").count == report.trajectories.count)

        let source = try Self.decodeAll(clip)
        let frameDuration = 1 / report.source.frameRate
        for trajectory in report.trajectories {
            let path = URL(fileURLWithPath: out).appendingPathComponent("\(trajectory.uuid.uuidString.lowercased()).mp4").path
            let sourceStart = try #require(try VideoClipper.sourceStart(ofClip: path))
            let frames = try Self.decodeAll(path)
            try #require(!frames.isEmpty)
            let covered = (start: sourceStart + frames[0].time, end: sourceStart + frames.last!.time + frameDuration)
            let wanted = (start: max(0, trajectory.timeRange.start - margin), end: min(report.source.duration, trajectory.timeRange.end + margin))
            #expect(covered.start <= wanted.start + 1e-3 && covered.end >= wanted.end - 1e-3,
                    "clip covers \(covered), wants \(wanted)")
            // Its first frame shows the source frame at sourceStart (the nearest by content).
            let index = try #require(source.firstIndex { abs($0.time - sourceStart) < frameDuration / 2 })
            let nearest = max(0, index - 3)...min(source.count - 1, index + 3)
            let best = nearest.min { Self.difference(source[$0].picture, frames[0].picture) < Self.difference(source[$1].picture, frames[0].picture) }
            #expect(best == index)
        }
        let methods = Set(outcome.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" })
        #expect(methods.isSubset(of: ["stream copy", "re-encoded"]))
        if margin == 3 { #expect(methods == ["stream copy"]) }  // both start at 0, on the keyframe
        if margin == 0 { #expect(methods.contains("re-encoded")) }  // the second starts long after the only keyframe
    }

    @Test("clips cuts a stream that states no size or duration, as detect measured them from its frames")
    func clipsOfAStreamWithoutStatedSize() throws {
        let folder = try TestFolder.fresh()
        let stream = try InputOutcomeTests.joinedMidBroadcast(in: folder).path
        let resultPath = folder.appendingPathComponent("R.json").path
        #expect(try CommandLineRunner.run(["detect", stream, "--output", resultPath]).status == 0)
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: resultPath)))
        try #require(report.trajectories.count == 1 && report.source.width == InputOutcomeTests.ball.width)

        let out = folder.appendingPathComponent("clips").path
        let outcome = try CommandLineRunner.run(["clips", stream, "--result", resultPath, "--out", out])
        // Before, the stated 0×0 size made clips refuse the result as another video's.
        #expect(outcome.status == 0, "\(outcome.errorLines)")
        let fields = try #require(outcome.standardOutput.split(separator: "\n").first).split(separator: "\t")
        // The clip's range ends within the video, whose duration only detect's frames gave.
        let range = try #require(fields.count == 4 ? fields[1] : nil)
        let end = try #require(Double(range.split(separator: "…").last?.dropLast(2) ?? ""))
        #expect(abs(end - report.source.duration) < 1e-3, "\(range) for a video of \(report.source.duration) s")
        let path = URL(fileURLWithPath: out).appendingPathComponent("\(report.trajectories[0].uuid.uuidString.lowercased()).mp4").path
        #expect(try Self.decodeAll(path).count == report.source.frameCount)
    }

    @Test("a spliced stream, its times set forward by detect, gets an overlay of every frame and a clip per flight, timed as shown")
    func picturesOfASplicedStream() throws {
        let folder = try TestFolder.fresh()
        let part = try Data(contentsOf: ThrownBallClip().make(in: folder, named: "part.ts", options: ThrownBallClip.h264))
        let stream = try InputOutcomeTests.write(part + part, to: folder, as: "spliced.ts").path
        let overlay = folder.appendingPathComponent("overlay.mp4").path, resultPath = folder.appendingPathComponent("R.json").path
        let detect = try CommandLineRunner.run(["detect", stream, "--overlay", overlay, "--output", resultPath])
        #expect(detect.status == 0, "\(detect.errorLines)")
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: resultPath)))
        try #require(report.trajectories.count == 2, "one flight in each part")
        // The second part's flight comes after the first's, not at the same times.
        #expect(report.trajectories[1].timeRange.start >= report.trajectories[0].timeRange.end)
        #expect(try Self.decodeAll(overlay).count == report.source.frameCount)

        // Before, clips refused the result as another video's ("was made from a … video of 2.40 s").
        let out = folder.appendingPathComponent("clips").path
        let clips = try CommandLineRunner.run(["clips", stream, "--result", resultPath, "--out", out, "--margin", "0.5"])
        #expect(clips.status == 0, "\(clips.errorLines)")
        #expect(clips.errorLines.count == 1 && clips.errorLines[0].hasPrefix("trajectories: note: "), "\(clips.errorLines)")
        let frameDuration = 1 / report.source.frameRate
        for trajectory in report.trajectories {
            let path = URL(fileURLWithPath: out).appendingPathComponent("\(trajectory.uuid.uuidString.lowercased()).mp4").path
            let frames = try Self.decodeAll(path)
            // Every frame of the piece (the flight and half a second either side, within the
            // video), one frame duration apart, across the join too.
            let start = max(0, trajectory.timeRange.start - 0.5)
            let end = min(report.source.duration, trajectory.timeRange.end + 0.5)
            #expect(abs(Double(frames.count) - (end - start) / frameDuration) <= 1.5, "\(frames.count) frames for \(start)…\(end) s")
            for (earlier, later) in zip(frames, frames.dropFirst()) {
                #expect(abs(later.time - earlier.time - frameDuration) < 1e-3, "\(path) at \(later.time) s")
            }
            #expect(try VideoClipper.sourceStart(ofClip: path).map { abs($0 - start) <= frameDuration } == true)
        }
    }

    @Test("a stream that changes size part-way gets an overlay and clips at its first size, with every frame")
    func picturesOfAStreamThatChangesSize() throws {
        let folder = try TestFolder.fresh()
        // The thrown ball at 320×240, then at 640×480: raw H.264 carries each part's own size.
        let small = try Data(contentsOf: ThrownBallClip().make(in: folder, named: "small.h264", options: ThrownBallClip.h264))
        let large = try Data(contentsOf: ThrownBallClip(width: 640, height: 480).make(in: folder, named: "large.h264", options: ThrownBallClip.h264))
        let stream = try InputOutcomeTests.write(small + large, to: folder, as: "switched.h264").path
        let overlay = folder.appendingPathComponent("overlay.mp4").path, resultPath = folder.appendingPathComponent("R.json").path
        let detect = try CommandLineRunner.run(["detect", stream, "--overlay", overlay, "--output", resultPath])
        // Before, the overlay failed at the first larger frame: "a 640×480 picture does not fit a 320×240 video".
        #expect(detect.status == 0, "\(detect.errorLines)")
        let report = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: resultPath)))
        #expect(report.source.frameCount == 2 * InputOutcomeTests.frames)
        try #require(report.trajectories.count == 2, "one flight in each part")
        let overlaid = try Self.decodeAll(overlay)
        #expect(overlaid.count == report.source.frameCount)
        #expect(overlaid.allSatisfy { $0.picture.width == 320 && $0.picture.height == 240 })

        let out = folder.appendingPathComponent("clips").path
        let clips = try CommandLineRunner.run(["clips", stream, "--result", resultPath, "--out", out, "--margin", "0"])
        #expect(clips.status == 0, "\(clips.errorLines)")
        let second = URL(fileURLWithPath: out).appendingPathComponent("\(report.trajectories[1].uuid.uuidString.lowercased()).mp4").path
        let frames = try Self.decodeAll(second)
        #expect(!frames.isEmpty && frames.allSatisfy { $0.picture.width == 320 && $0.picture.height == 240 })
    }

    static func distance(_ a: PixelPoint, _ b: PixelPoint) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Points every quarter of each segment of `polyline`.
    static func densified(_ polyline: [PixelPoint]) -> [PixelPoint] {
        var points: [PixelPoint] = []
        for (a, b) in zip(polyline, polyline.dropFirst()) {
            for step in 0..<4 {
                let t = Double(step) / 4
                points.append(PixelPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
            }
        }
        return points
    }

    static func difference(_ a: YUVPicture, _ b: YUVPicture) -> Int {
        zip(a.luma, b.luma).reduce(0) { sum, pair in
            let d = Int(pair.0) - Int(pair.1)
            return sum + d * d
        }
    }

    @Test("clips: a missing result, a folder, JSON lines, a result for another video, stdin or bad options fail in one line saying why; no trajectories is not an error")
    func clipErrors() throws {
        let folder = try TestFolder.fresh()
        let clip = Self.sample("clean-1.mp4")
        let out = folder.appendingPathComponent("out").path

        let missing = try CommandLineRunner.run(["clips", clip, "--result", folder.appendingPathComponent("none.json").path, "--out", out])
        #expect(missing.errorLines == ["trajectories: error: cannot read result file '\(folder.appendingPathComponent("none.json").path)': no such file"])
        #expect(missing.status == 1)
        let directory = try CommandLineRunner.run(["clips", clip, "--result", folder.path, "--out", out])
        #expect(directory.status == 1 && directory.errorLines.count == 1 && directory.standardError.contains(": it is a directory"))

        let lines = folder.appendingPathComponent("lines.jsonl").path
        #expect(try CommandLineRunner.run(["detect", clip, "--format", "jsonl", "--output", lines]).status == 0)
        let jsonLines = try CommandLineRunner.run(["clips", clip, "--result", lines, "--out", out])
        #expect(jsonLines.status == 1 && jsonLines.errorLines.count == 1 && jsonLines.standardError.contains("--format jsonl lines"))

        let other = folder.appendingPathComponent("hd.json").path
        #expect(try CommandLineRunner.run(["detect", Self.sample("hd60-1.mp4"), "--output", other]).status == 0)
        let mismatch = try CommandLineRunner.run(["clips", clip, "--result", other, "--out", out])
        #expect(mismatch.status == 1 && mismatch.errorLines.count == 1 && mismatch.standardError.contains("was made from a 1920×1080"))

        let empty = folder.appendingPathComponent("empty.json").path
        let carried = try CommandLineRunner.run(["detect", CommandLineRunner.sharedClip("carried-by-hand.mp4"), "--output", empty])
        let emptyReport = try JSONDecoder().decode(TrajectoryReport.self, from: Data(contentsOf: URL(fileURLWithPath: empty)))
        try #require(carried.status == 0 && emptyReport.trajectories.isEmpty)
        let nothing = try CommandLineRunner.run(["clips", CommandLineRunner.sharedClip("carried-by-hand.mp4"), "--result", empty, "--out", out])
        #expect(nothing.status == 0 && nothing.standardOutput.isEmpty && nothing.standardError.contains("no trajectories"))
        #expect(!FileManager.default.fileExists(atPath: out))

        let stdin = try CommandLineRunner.run(["clips", "-", "--result", other, "--out", out],
                                              standardInput: URL(fileURLWithPath: clip))
        #expect(stdin.status == 1 && stdin.errorLines.count == 1 && stdin.standardError.contains("not '-'"))

        let negative = try CommandLineRunner.run(["clips", clip, "--result", empty, "--out", out, "--margin", "-1"])
        #expect(negative.status == 64)
    }

    @Test("--overlay refuses standard input, which cannot be read twice, before reading it")
    func overlayNeedsAFile() throws {
        let outcome = try CommandLineRunner.run(["detect", "-", "--overlay", "/tmp/never.mp4"],
                                                standardInput: URL(fileURLWithPath: Self.sample("clean-1.mp4")))
        #expect(outcome.status == 1 && outcome.errorLines.count == 1 && outcome.standardError.contains("not '-'"))
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test("--overlay and clips refuse a named pipe, which a second pass would wait on for ever, before opening it")
    func overlayRefusesANamedPipe() throws {
        let folder = try TestFolder.fresh()
        let pipe = folder.appendingPathComponent("live.ts").path
        try #require(mkfifo(pipe, 0o600) == 0)
        // Nothing ever writes to the pipe: a run that opened it would wait until killed.
        let overlay = try CommandLineRunner.run(
            ["detect", pipe, "--overlay", folder.appendingPathComponent("o.mp4").path], timeLimit: 30)
        #expect(!overlay.timedOut)
        #expect(overlay.status == 1 && overlay.errorLines.count == 1 && overlay.standardError.contains("read the video a second time"))
        let clips = try CommandLineRunner.run(
            ["clips", pipe, "--result", folder.appendingPathComponent("never-read.json").path, "--out", folder.appendingPathComponent("cut").path], timeLimit: 30)
        #expect(!clips.timedOut)
        #expect(clips.status == 1 && clips.errorLines.count == 1 && clips.standardError.contains("needs a file or URL"))
    }

    @Test("--overlay or --snapshot '-' is refused before the run: standard output carries the results", arguments: ["--overlay", "--snapshot"])
    func picturesToStandardOutput(flag: String) throws {
        let outcome = try CommandLineRunner.run(["detect", Self.sample("clean-1.mp4"), flag, "-"])
        #expect(outcome.status == 1 && outcome.standardOutput.isEmpty)
        #expect(outcome.errorLines == ["trajectories: error: \(flag) needs a file to write, not '-': standard output carries the results"])
    }

    @Test("an output naming the input video, or two outputs naming one file, are refused before anything is written",
          arguments: [["--output", "clip.mp4"], ["--output", "./clip.mp4"], ["--overlay", "clip.mp4"], ["--snapshot", "clip.mp4"],
                      ["--output", "same.json", "--overlay", "same.json"]])
    func outputsThatClash(flags: [String]) throws {
        let folder = try TestFolder.fresh()
        let clip = folder.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.sample("clean-1.mp4")), to: clip)
        let original = try Data(contentsOf: clip)

        let outcome = try CommandLineRunner.run(["detect", "clip.mp4"] + flags, in: folder)

        #expect(outcome.status == 1 && outcome.errorLines.count == 1, "\(outcome.errorLines)")
        #expect(outcome.standardError.contains("is the input video") || outcome.standardError.contains("both name"))
        #expect(try Data(contentsOf: clip) == original, "the video was changed")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("same.json").path))
    }

    @Test("an overlay that cannot be written fails in one line after the results are out, not instead of them")
    func overlayFailureKeepsResults() throws {
        let folder = try TestFolder.fresh()
        // No container goes by this extension, so the overlay fails once the second pass starts.
        let overlay = folder.appendingPathComponent("overlay.no-such-container").path
        let outcome = try CommandLineRunner.run(["detect", Self.sample("clean-1.mp4"), "--overlay", overlay])
        #expect(outcome.status == 1 && outcome.errorLines.count == 1)
        #expect(try Self.report(outcome).trajectories.count == 1)
    }
}
