import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

#if canImport(Glibc)
import Glibc
#endif

/// Live streams and shell pipelines hand the reader a pipe it cannot seek in.
@Suite("Reading from a pipe")
struct PipeTests {
    static let frameCount = 20

    @Test("a pipe:N URL", arguments: ["clip.mp4", "clip.mkv", "clip.ts"])
    func pipeURL(fileName: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(fileName)
        try MovingSquare().write(to: path, count: Self.frameCount, settings: quickSettings())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let ends = try PipeEnds()
        let feeder = Thread { ends.write(bytes) }
        feeder.start()
        let (_, frames, _) = try decodeAll("pipe:\(ends.readEnd)")

        #expect(frames.count == Self.frameCount)
        let scene = MovingSquare()
        for (index, frame) in frames.enumerated() {
            let centre = try #require(scene.brightCentroid(of: frame.image))
            #expect(abs(centre.x - scene.centre(ofFrame: index).x) < 0.5, "frame \(index)")
        }
    }

    @Test("what can be read only once: standard input, pipes and named pipes and devices, however named; not files, folders or URLs")
    func readOnceInputs() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("live:1.ts")  // a name FFmpeg would take for a URL
        try #require(mkfifo(fifo, 0o600) == 0)
        let file = directory.file("clip.mp4")
        try Data([1]).write(to: URL(fileURLWithPath: file))

        // FFmpeg 5.1 has no fd: protocol; "fd:3" is a file name to it.
        for readOnce in ["-", "pipe:0", fifo, "file:" + fifo, "/dev/null"] {
            #expect(VideoReader.isReadOnce(readOnce), "\(readOnce)")
        }
        for again in [file, "file:" + file, directory.path, directory.file("missing.mp4"), "http://127.0.0.1:9/x.mp4"] {
            #expect(!VideoReader.isReadOnce(again), "\(again)")
        }
        #expect(VideoReader.localPath(of: fifo) == fifo && VideoReader.localPath(of: "file:" + file) == file)
        #expect(VideoReader.localPath(of: "pipe:0") == nil && VideoReader.localPath(of: "http://127.0.0.1:9/x.mp4") == nil)
        #expect(LocalFile(path: fifo)?.kind == .special && LocalFile(path: file)?.kind == .regular)
        #expect(LocalFile(path: file)?.size == 1 && LocalFile(path: directory.file("missing.mp4")) == nil)
    }

    @Test("a run that stops early returns while the stream has gone silent, not when it ends")
    func stopOnSilentStream() throws {
        let directory = try TemporaryDirectory()
        // Matroska hands over each frame as soon as its bytes are in, with no index to wait for.
        let path = directory.file("clip.mkv")
        try MovingSquare().write(to: path, count: Self.frameCount, settings: quickSettings())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let ends = try PipeEnds()
        // Every byte, and then silence: the decoding thread waits for more that never comes.
        let feeder = Thread { ends.write(bytes, thenClose: false) }
        feeder.start()
        defer { close(ends.writeEnd) }  // lets the decoding thread finish after the test

        let result = outcome(within: 20) {
            let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
            return try VideoTrajectoryDetection.run(uri: "pipe:\(ends.readEnd)", request: request) { frame in
                // Near the end: the frames left fit the queue, so the decoder reads all there
                // is and waits on the pipe (it holds back a frame or two until the end).
                if frame.stamp.index >= Self.frameCount - 6 {
                    Thread.sleep(forTimeInterval: 0.3)
                    throw EnoughFrames()
                }
            }.framesAnalysed
        }
        // Before, the run waited for the stream's end.
        let ended = try #require(result, "the run waited for the silent stream")
        #expect(throws: EnoughFrames.self) { try ended.get() }
    }

    @Test("'-' reads standard input")
    func standardInput() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("clip.mp4")
        try MovingSquare().write(to: path, count: Self.frameCount, settings: quickSettings())
        // The child process gets its own standard input; the test runner's is left alone.
        await #expect(processExitsWith: .success) { [path = path as String] in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let ends = try PipeEnds()
            guard dup2(ends.readEnd, STDIN_FILENO) >= 0 else { exit(2) }
            let feeder = Thread { ends.write(bytes) }
            feeder.start()
            let (info, frames, _) = try decodeAll("-")
            exit(info.uri == "-" && frames.count == PipeTests.frameCount ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }
}

/// Thrown by a test's frame callback to end a run early.
struct EnoughFrames: Error {}

/// An anonymous pipe; `write` fills it from another thread and closes the write end, so the
/// reader sees the end of the stream.
final class PipeEnds: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Writes `bytes`, then closes the write end unless `thenClose` is false: a stream that
    /// has gone silent.
    func write(_ bytes: Data, thenClose: Bool = true) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        if thenClose { close(writeEnd) }
    }

    deinit { close(readEnd) }
}
