import Foundation
import Testing
import TestSupport

/// The runner's peak-memory measurement, which the memory limits of `InputOutcomeTests` rest on.
@Suite struct CommandLineRunnerTests {
    @Test("a run's measured peak memory is its own, not that of the process the tests run in")
    func measuredPeakIsTheRunsOwn() async throws {
        // In a test process of its own, which first holds 300 MB and lets go of them: a
        // program it started directly would be charged those 300 MB as its peak, since Linux
        // counts the address space replaced at exec into the new program's high-water mark.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let held = UnsafeMutableRawBufferPointer.allocate(byteCount: 300 << 20, alignment: 4096)
            for offset in stride(from: 0, to: held.count, by: 4096) { held[offset] = 1 }
            held.deallocate()
            let folder = try TestFolder.fresh()
            let run = try CommandLineRunner.runMeasuringPeakMemory(["--version"], outputFolder: folder)
            FileHandle.standardError.write(Data("\(run.outcome.status) \(run.peakKilobytes)".utf8))
        }
        let report = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let figures = report.split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 2, "the child reported: \(report)")
        #expect(figures[0] == 0)
        // `trajectories --version` peaks at about 45 MB, the libraries it loads.
        #expect(figures[1] > 1_000 && figures[1] < 100_000, "peak \(figures[1]) KB")
    }
}
