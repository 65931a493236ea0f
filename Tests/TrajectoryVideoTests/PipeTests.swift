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

    func write(_ bytes: Data) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        close(writeEnd)
    }

    deinit { close(readEnd) }
}
