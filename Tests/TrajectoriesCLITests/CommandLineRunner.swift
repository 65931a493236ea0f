import Foundation
import TestSupport

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
        let folder = try TestFolder.fresh()
        let outputFile = folder.appendingPathComponent("stdout"), errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: standardOutput ?? outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        if let standardInput { process.standardInput = try FileHandle(forReadingFrom: standardInput) }
        try process.run()
        let timedOut = waitForExit(of: process, timeLimit: timeLimit)
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
    ///
    /// A small python3 process starts it and reports its peak. Started from this test process
    /// directly, it would not be its own: at `exec` Linux counts into the new program's peak
    /// the high-water mark of the address space it replaces, which for a child of `posix_spawn`
    /// or `fork` is this process's, and this process, running many tests at once, can have
    /// held more than the runs it measures (/bin/true spawned from a process that once held
    /// 300 MB reports 320 MB). The launcher's own 13 MB or so are far below any run's peak
    /// (`--version` alone peaks at about 45 MB).
    static func runMeasuringPeakMemory(
        _ arguments: [String], outputFolder: URL, timeLimit: Double = 120
    ) throws -> MeasuredRun {
        let outputFile = outputFolder.appendingPathComponent("stdout"), errorFile = outputFolder.appendingPathComponent("stderr")
        let report = outputFolder.appendingPathComponent("peak")
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        launcher.arguments = ["python3", "-c", peakMemoryLauncher, outputFile.path, errorFile.path, report.path,
                              String(timeLimit), executable.path] + arguments
        try launcher.run()
        launcher.waitUntilExit()
        let reported = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        let fields = reported.split(separator: " ").compactMap { Int($0) }
        guard launcher.terminationStatus == 0, fields.count == 3 else {
            // Its traceback, if any, went to this process's standard error.
            throw LauncherFailure(status: launcher.terminationStatus, report: reported)
        }
        let (status, peakKilobytes, timedOut) = (Int32(fields[0]), fields[1], fields[2] != 0)
        let signal = status & 0x7f  // the wait status: a signal number, or 0 and the exit code above it
        let outcome = Outcome(
            status: signal == 0 ? (status >> 8) & 0xff : signal,
            standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
            standardError: try String(contentsOf: errorFile, encoding: .utf8),
            diedOfSignal: signal != 0, timedOut: timedOut)
        return (outcome, peakKilobytes)
    }

    /// The peak-memory launcher ended without a report: python3 missing, or the command not started.
    struct LauncherFailure: Error, CustomStringConvertible {
        var status: Int32
        var report: String
        var description: String { "the python3 launcher exited with \(status) and reported '\(report)'" }
    }

    /// Starts the command after its first four arguments with standard output and error written
    /// to the first two files, kills it after the fourth's seconds, and writes its wait status,
    /// peak resident set in kilobytes and whether it was killed to the third file.
    private static let peakMemoryLauncher = """
        import os, signal, sys, time
        output, error, report, limit = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
        command = sys.argv[5:]
        child = os.fork()
        if child == 0:
            os.dup2(os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
            os.dup2(os.open(error, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
            os.execv(command[0], command)
        deadline, timed_out = time.monotonic() + limit, False
        while True:
            finished, status, usage = os.wait4(child, os.WNOHANG)
            if finished:
                break
            if not timed_out and time.monotonic() > deadline:
                os.kill(child, signal.SIGKILL)
                timed_out = True
            time.sleep(0.02)
        with open(report, "w") as file:
            file.write(f"{status} {usage.ru_maxrss} {int(timed_out)}")
        """
}
