import Foundation
import Testing
import TrajectoryKit
import TrajectorySynth
import TrajectoryVideo

/// A file cut short by a failed download or a full disk still holds frames a user wants.
@Suite("Truncated and damaged files")
struct DamagedFileTests {
    static let frameCount = 60
    static let scene = MovingSquare(noise: 12)

    /// A 60-frame clip with the moving square, as bytes.
    static func clip(in directory: TemporaryDirectory, fastStart: Bool = true) throws -> Data {
        let path = directory.file("whole.mp4")
        var settings = quickSettings(crf: 23)
        settings.fastStart = fastStart
        try Self.scene.write(to: path, count: frameCount, settings: settings)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("a file cut to 60% of its bytes gives the frames before the cut, and says it ends early")
    func truncated() throws {
        let directory = try TemporaryDirectory()
        let whole = try Self.clip(in: directory)
        let path = directory.file("cut.mp4")
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: path))

        let (info, frames, warnings) = try decodeAll(path)

        #expect(info.frameCount == Self.frameCount)
        #expect(frames.count > Self.frameCount / 3 && frames.count < Self.frameCount)
        #expect(warnings.contains("the file ends early: decoded \(frames.count) of the 60 frames the container lists"))
        // What was decoded is still the right picture.
        let scene = Self.scene
        for (index, frame) in frames.prefix(frames.count - 1).enumerated() {
            let centre = try #require(scene.brightCentroid(of: frame.image))
            #expect(abs(centre.x - scene.centre(ofFrame: index).x) < 0.5, "frame \(index)")
        }
    }

    @Test("an MP4 cut short before its index (no fast start) is refused with FFmpeg's reason")
    func truncatedWithoutIndex() throws {
        let directory = try TemporaryDirectory()
        let whole = try Self.clip(in: directory, fastStart: false)
        let path = directory.file("cut.mp4")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))

        let error = try #require(throws: VideoError.self) { _ = try VideoReader(uri: path) }

        #expect(error.kind == .notAVideo)
        #expect(error.description == "'\(path)' is not a video FFmpeg can read (mov: moov atom not found)")
    }

    @Test("garbage in the middle of the coded frames: every frame still comes out, with warnings")
    func corruptedMiddle() throws {
        let directory = try TemporaryDirectory()
        var bytes = try Self.clip(in: directory)
        let path = directory.file("damaged.mp4")
        // Overwrite a stretch of coded data (the index sits at the front with fast start).
        // Seeded, so every run damages the file the same way: some random patterns happen to
        // decode without a complaint from FFmpeg, and a test must not pass or fail by chance.
        var generator = SeededGenerator(seed: 2)
        let start = bytes.count / 2
        for offset in start..<(start + 2000) {
            bytes[offset] = UInt8(truncatingIfNeeded: generator.next())
        }
        try bytes.write(to: URL(fileURLWithPath: path))

        let (_, frames, warnings) = try decodeAll(path)

        #expect(frames.count == Self.frameCount)
        #expect(!warnings.isEmpty)
        #expect(warnings.allSatisfy { !$0.contains("\n") })
    }
}

extension DamagedFileTests {
    static let transportStreamCut =
        "the input ends part way through a transport-stream packet, as one cut short does: its last frames may be missing"

    /// Writes the scene as an MPEG-TS and returns its path and bytes, for tests that damage it.
    static func writeTransportStream(named name: String, in directory: TemporaryDirectory) throws -> (path: String, bytes: Data) {
        let path = directory.file(name)
        try scene.write(to: path, count: frameCount, settings: quickSettings(crf: 23))
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("an MPEG-TS cut part way through a packet gives the frames before the cut, and says it was cut short")
    func truncatedTransportStream() throws {
        let directory = try TemporaryDirectory()
        let (whole, bytes) = try Self.writeTransportStream(named: "whole.ts", in: directory)
        #expect(bytes.count % 188 == 0, "a transport stream is written in whole 188-byte packets")
        let cut = directory.file("cut.ts")
        // 60 % of the way in, and 100 bytes into a packet.
        try bytes.prefix(bytes.count * 6 / 10 / 188 * 188 + 100).write(to: URL(fileURLWithPath: cut))

        let (_, wholeFrames, wholeWarnings) = try decodeAll(whole)
        let (_, frames, warnings) = try decodeAll(cut)

        #expect(wholeFrames.count == Self.frameCount)
        #expect(!wholeWarnings.contains(Self.transportStreamCut))
        #expect(frames.count > Self.frameCount / 3 && frames.count < Self.frameCount)
        #expect(warnings.contains(Self.transportStreamCut), "\(warnings)")
    }

    @Test("an MPEG-TS spliced from two whose timestamps go back at the join: times keep going forward, with a warning")
    func splicedStream() throws {
        let directory = try TemporaryDirectory()
        let (_, bytes) = try Self.writeTransportStream(named: "part.ts", in: directory)
        let spliced = directory.file("spliced.ts")
        try (bytes + bytes).write(to: URL(fileURLWithPath: spliced))

        let (info, frames, warnings) = try decodeAll(spliced)

        #expect(frames.count == 2 * Self.frameCount)
        let frameDuration = 1 / info.frameRate
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            // One frame apart throughout: the second part follows the first, as it was shown.
            #expect(abs(later.stamp.time - earlier.stamp.time - frameDuration) < 1e-6, "frame \(later.stamp.index)")
        }
        #expect(warnings.contains { $0.hasPrefix("a frame's timestamp goes back (a damaged or spliced stream)") }, "\(warnings)")
    }
}
