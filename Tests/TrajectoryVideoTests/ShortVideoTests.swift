import Testing
import TrajectoryKit
import TrajectoryVideo

/// A video too short to hold a trajectory gives none, and says why: an empty result must not
/// read as "no ball here".
@Suite("Videos too short for a trajectory")
struct ShortVideoTests {
    @Test("too few frames for the trajectory length: a warning says how many are needed", arguments: [
        (frames: 8, length: 10, warns: true), (frames: 12, length: 10, warns: true),
        (frames: 13, length: 10, warns: false), (frames: 8, length: 5, warns: false),
    ])
    func tooFewFrames(frames: Int, length: Int, warns: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("short.mp4")
        try MovingSquare().write(to: path, count: frames, settings: quickSettings())
        let request = try DetectTrajectoriesRequest(trajectoryLength: length)
        let summary = try VideoTrajectoryDetection.run(uri: path, request: request) { _ in }
        #expect(summary.framesAnalysed == frames)
        let warning = summary.warnings.first { $0.hasPrefix("only \(frames) frames were analysed") }
        #expect((warning != nil) == warns, "\(summary.warnings)")
        if warns { #expect(warning?.contains("needs \(3 + length)") == true) }
    }
}
