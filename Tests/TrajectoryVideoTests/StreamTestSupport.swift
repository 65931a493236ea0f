import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs a local TCP server, played by a python3 child process so tests need no socket code of
/// their own, and calls `body` with its port while it runs. `script` must print the port it
/// listens on first. The server is killed when `body` returns.
func withScriptedServer<Result>(
    script: String, arguments: [String] = [], _ body: (_ port: String) throws -> Result
) throws -> Result {
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    server.arguments = ["python3", "-c", script] + arguments
    let output = Pipe()
    server.standardOutput = output
    try server.run()
    defer {
        // SIGKILL: the child may inherit SIGTERM blocked from the test runner's thread, and
        // then outlive the test by as long as it sleeps.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }
    let port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !port.isEmpty else { throw POSIXError(.ECONNREFUSED) }
    return try body(port)
}

/// Runs `body` on a thread of its own and waits up to `seconds` for it to finish: a guard
/// against hanging, not a speed claim. Returns nil when it did not finish in time.
func outcome<Value: Sendable>(
    within seconds: Double, of body: @escaping @Sendable () throws -> Value
) -> Result<Value, any Error>? {
    let finished = DispatchSemaphore(value: 0)
    let result = Mutex<Result<Value, any Error>?>(nil)
    Thread {
        let outcome = Result { try body() }
        result.withLock { $0 = outcome }
        finished.signal()
    }.start()
    guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.withLock { $0 }
}
