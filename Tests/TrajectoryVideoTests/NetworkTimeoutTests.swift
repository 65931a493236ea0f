import Foundation
import Testing
import TrajectoryVideo

/// A network stream that stops sending must end the run with an error, not hang it.
@Suite struct NetworkTimeoutTests {
    @Test("a server that accepts the connection and then sends nothing times out with a clear error")
    func stalledServer() throws {
        // A TCP server that accepts and stays silent.
        try withScriptedServer(script: """
            import socket, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            print(s.getsockname()[1], flush=True)
            connection, _ = s.accept(); time.sleep(30)
            """) { port in
            let uri = "tcp://127.0.0.1:\(port)"
            let started = Date()
            let error = #expect(throws: VideoError.self) { _ = try VideoReader(uri: uri, networkTimeout: 1) }
            #expect(Date().timeIntervalSince(started) < 10)
            #expect(error?.description.contains(uri) == true)
            #expect(error?.description.contains("timed out") == true)
        }
    }
}
