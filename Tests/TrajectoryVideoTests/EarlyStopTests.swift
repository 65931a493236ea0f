import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

/// A caller that stops a run part way (its frame callback throws) gets its input back closed,
/// not left to a decoding thread that reads on behind its back.
@Suite("Stopping a run early")
struct EarlyStopTests {
    @Test("a run stopped early returns with the file closed, not decoding on behind the caller", arguments: [1, 3])
    func fileClosedOnReturn(decodingThreads: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("noise.mkv")
        // Frames of pure noise take milliseconds each to decode, so a decoding thread left
        // running at the stop is still at work, the file open, when the run returns.
        var writer = try VideoWriter(path: path, width: 960, height: 540, settings: quickSettings())
        var random = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            try writer.append(LumaImage(width: 960, height: 540, pixels: (0..<960 * 540).map { _ in random.next() }))
        }
        try writer.finish()

        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        #expect(throws: EnoughFrames.self) {
            _ = try VideoTrajectoryDetection.run(uri: path, request: request, decodingThreads: decodingThreads) { frame in
                if frame.stamp.index >= 2 { throw EnoughFrames() }
            }
        }
        #expect(try Self.openDescriptors(of: path) == 0, "the decoding thread still holds the file")
    }

    @Test("a network stream stopped early while it is silent returns at once, not at its time-out")
    func silentNetworkStream() throws {
        let directory = try TemporaryDirectory()
        // Matroska hands over each frame as soon as its bytes are in.
        let path = directory.file("clip.mkv")
        let frameCount = 40
        try MovingSquare().write(to: path, count: frameCount, settings: quickSettings())
        // A TCP server that sends the whole clip and then stays silent, connection open, until
        // the reader closes it.
        try withScriptedServer(
            script: """
                import socket, sys
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
                print(s.getsockname()[1], flush=True)
                connection, _ = s.accept(); connection.sendall(open(sys.argv[1], "rb").read())
                connection.settimeout(120); connection.recv(1)
                """, arguments: [path]
        ) { port in
            // Without the stop signal the run waited for the network time-out, far longer than this.
            let result = outcome(within: 20) {
                let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
                return try VideoTrajectoryDetection.run(
                    uri: "tcp://127.0.0.1:\(port)", request: request, networkTimeout: 120
                ) { frame in
                    // Near the end, so the decoder has read all there is and waits for more.
                    if frame.stamp.index >= frameCount - 6 {
                        Thread.sleep(forTimeInterval: 0.3)
                        throw EnoughFrames()
                    }
                }.framesAnalysed
            }
            let ended = try #require(result, "the run waited for the silent stream")
            #expect(throws: EnoughFrames.self) { try ended.get() }
        }
    }

    /// How many of this process's file descriptors are open on `path`.
    static func openDescriptors(of path: String) throws -> Int {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor)) == target
        }
    }
}
