import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

/// Frames are streamed: decoding a long clip must not keep any of them.
@Suite("Memory while decoding")
struct MemoryTests {
    static let frameCount = 2000
    /// Resident memory may grow this much between frame 200 and the last frame. Keeping every
    /// decoded frame would add about 55 MB (160 × 120 × 1.5 bytes × 1800), keeping every
    /// packet about 5 MB.
    static let toleratedGrowth = 2 << 20

    @Test("resident memory stays flat over 2000 frames")
    func flatMemory() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("long.mp4")
        // Noise makes each packet a few kilobytes, so keeping packets would show too.
        try MovingSquare(width: 160, height: 120, side: 10, step: 0, top: 50, noise: 12)
            .write(to: path, count: Self.frameCount, settings: quickSettings(crf: 23))

        // Measured in a child process of its own, where no other test allocates meanwhile; it
        // reports "<frames decoded> <resident bytes at frame 200> <resident bytes at the end>".
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [path = path as String] in
            var reader = try VideoReader(uri: path)
            var checksum = 0
            func decode(_ frames: Int) throws {
                for _ in 0..<frames {
                    checksum &+= try reader.nextFrame { plane, _, _ in Int(plane[0]) } ?? 0
                }
            }
            try decode(200)  // buffers, threads and swscale reach their working size
            let before = MemoryTests.residentBytes()
            try decode(MemoryTests.frameCount - 200)
            let after = MemoryTests.residentBytes()
            try decode(1)  // past the end
            FileHandle.standardError.write(Data("\(reader.framesRead) \(before) \(after)".utf8))
        }
        let report = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let figures = report.split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 3, "the child reported: \(report)")
        #expect(figures[0] == Self.frameCount)
        #expect(figures[2] - figures[1] < Self.toleratedGrowth, "resident bytes at frame 200 and at the end: \(report)")
    }

    /// The process's resident set size, from /proc/self/statm (in pages).
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
