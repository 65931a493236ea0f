import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

/// Whatever a user points the reader at, it answers with one clear line, never a crash or a hang.
@Suite("Inputs that are not videos")
struct BadInputTests {
    @Test("a missing file")
    func missing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.mp4")
        let error = try openingError(path)
        #expect(error.kind == .noSuchFile)
        #expect(error.description == "cannot open '\(path)': no such file")
    }

    @Test("an empty file")
    func empty() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("empty.mp4")
        try Data().write(to: URL(fileURLWithPath: path))
        let error = try openingError(path)
        #expect(error.kind == .emptyFile)
        #expect(error.description == "'\(path)' is empty")
    }

    // Short text is refused by every demuxer; long text named .txt is taken by FFmpeg's tty
    // demuxer, which would draw it as ANSI art.
    @Test("a text file", arguments: [("notes.txt", "a few words\n"), ("long.txt", String(repeating: "a line of text\n", count: 500)),
                                     ("data.json", #"{"frames": [1, 2, 3]}"#)])
    func text(name: String, contents: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(name)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try openingError(path)
        #expect(error.kind == .notAVideo)
        #expect(error.description.hasPrefix("'\(path)' is not a video FFmpeg can read"))
        #expect(!error.description.contains("\n"))
    }

    @Test("an audio file has no video stream")
    func audioOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("tone.wav")
        try Self.wave(seconds: 0.2).write(to: URL(fileURLWithPath: path))
        let error = try openingError(path)
        #expect(error.kind == .noVideoStream)
        #expect(error.description == "'\(path)' has no video stream")
    }

    @Test("writer settings that cannot work are refused before any file is made", arguments: [
        (VideoWriter.Settings(rotation: 45), 64, 48, "rotation"),
        (VideoWriter.Settings(crf: 70), 64, 48, "crf"),
        (VideoWriter.Settings(), 63, 48, "even"),
        (VideoWriter.Settings(frameRate: FrameRate(frames: 0)), 64, 48, "frame rate"),
    ])
    func badSettings(settings: VideoWriter.Settings, width: Int, height: Int, reason: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.mp4")
        let error = try #require(throws: VideoError.self) {
            _ = try VideoWriter(path: path, width: width, height: height, settings: settings)
        }
        #expect(error.kind == .invalidSettings)
        #expect(error.description.hasPrefix("cannot write '\(path)': ") && error.description.contains(reason))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a frame of the wrong size is refused")
    func wrongFrameSize() throws {
        let directory = try TemporaryDirectory()
        var writer = try VideoWriter(path: directory.file("out.mp4"), width: 64, height: 48, settings: quickSettings())
        let error = try #require(throws: VideoError.self) {
            try writer.append(LumaImage(width: 32, height: 48))
        }
        #expect(error.kind == .invalidFrame)
    }

    private func openingError(_ path: String) throws -> VideoError {
        try #require(throws: VideoError.self) { _ = try VideoReader(uri: path) }
    }

    /// A mono 16-bit PCM WAV file of silence.
    static func wave(seconds: Double, sampleRate: Int = 8000) -> Data {
        let samples = Int(seconds * Double(sampleRate))
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + 2 * samples))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(2 * sampleRate)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(2 * samples))
        data.append(Data(count: 2 * samples))
        return data
    }
}
