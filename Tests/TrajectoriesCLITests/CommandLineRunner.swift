import Foundation

/// Runs the built `trajectories` binary as a user would, capturing what it prints.
struct CommandLineRunner {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// Whether a signal ended the process (a crash, or the time-out's kill) instead of an exit.
        var diedOfSignal = false
        /// Whether the process overran its time limit and was killed: a hang.
        var timedOut = false

        /// Standard error's non-empty lines.
        var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
    }

    /// The repository's root, found from this file's place in it.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The real footage shared beside the repository (see ../shared/clips/README.md).
    static func sharedClip(_ name: String) -> String {
        repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/clips/\(name)").path
    }

    /// The binary SwiftPM built next to the test bundle (`.build/<configuration>/trajectories`).
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("trajectories")
    }()

    /// Runs `trajectories arguments…` in `directory` (the repository's root when nil), feeding
    /// `standardInput` (a file) when given, and writing its standard output to `standardOutput`
    /// when given (then the outcome's is empty). A run that takes longer than `timeLimit`
    /// seconds is killed and reported as `timedOut`, so a hang fails its test instead of
    /// stalling the suite.
    static func run(
        _ arguments: [String], in directory: URL? = nil, standardInput: URL? = nil, standardOutput: URL? = nil,
        timeLimit: Double = 300
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repositoryRoot
        // Files rather than pipes: nothing can fill up and block the child, and nothing is read
        // from two threads at once.
        let folder = try temporaryFolder()
        let outputFile = folder.appendingPathComponent("stdout"), errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: standardOutput ?? outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        if let standardInput { process.standardInput = try FileHandle(forReadingFrom: standardInput) }
        try process.run()
        let timedOut = waitForExit(of: process, timeLimit: timeLimit)
        defer { try? FileManager.default.removeItem(at: folder) }
        return Outcome(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
            standardError: try String(contentsOf: errorFile, encoding: .utf8),
            diedOfSignal: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
    }

    /// Waits for `process` to end, killing it after `timeLimit` seconds; true when it had to.
    private static func waitForExit(of process: Process, timeLimit: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeLimit)
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        return false
    }

    /// A run and the peak of its resident memory.
    typealias MeasuredRun = (outcome: Outcome, peakKilobytes: Int)

    /// Runs `trajectories arguments…` with its output written to `outputFolder`/stdout and
    /// stderr, and returns its exit status and the most memory it held (its peak resident set,
    /// from the kernel's accounting of that one process). Killed after `timeLimit` seconds.
    static func runMeasuringPeakMemory(
        _ arguments: [String], outputFolder: URL, timeLimit: Double = 120
    ) throws -> MeasuredRun {
        // Foundation's Process reaps its child itself, so the usage of this one process is
        // only to be had by spawning and waiting for it here.
        let outputFile = outputFolder.appendingPathComponent("stdout"), errorFile = outputFolder.appendingPathComponent("stderr")
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&fileActions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, executable.path, &fileActions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0, usage = rusage()
        let deadline = Date().addingTimeInterval(timeLimit)
        var timedOut = false
        while wait4(child, &status, WNOHANG, &usage) == 0 {
            if Date() > deadline, !timedOut {
                kill(child, SIGKILL)
                timedOut = true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let signal = status & 0x7f  // the wait status: a signal number, or 0 and the exit code above it
        let outcome = Outcome(
            status: signal == 0 ? (status >> 8) & 0xff : signal,
            standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
            standardError: try String(contentsOf: errorFile, encoding: .utf8),
            diedOfSignal: signal != 0, timedOut: timedOut)
        return (outcome, Int(usage.ru_maxrss))  // kilobytes on Linux
    }

    /// A fresh temporary folder for one test's files.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("trajectories-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
