import Foundation
import Testing
import TrajectoryKit
import TrajectorySynth
import TrajectoryVideo

/// The carrier cue end to end (``SideMotion``): no-ball-clutter seed 3 has a man swinging a
/// ball whose rise and fall at the top of the swing fit a flight (frames 6–26 and 60–81), and
/// only the arm beside it tells that it is carried. Without the cue both swings were reported.
@Suite struct CarrierCueSceneTests {
    /// The trajectories `detect` finds in no-ball-clutter seed 3 with `region` as its region of
    /// interest, as (first frame, last frame) pairs.
    static func trajectories(in region: NormalizedRect) throws -> [(Int, Int)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carrier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try SceneExport.write(.noBallClutter, seed: 3, to: folder)
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.regionOfInterest = region
        var collector = TrajectoryCollector()
        _ = try VideoTrajectoryDetection.run(uri: clip.video.path, request: request) { frame in
            collector.add(frame.observations)
        }
        let formatter = ReportFormatter(coordinates: .normalized, frameWidth: 1280, frameHeight: 720)
        return collector.trajectories(formattedBy: formatter).map { ($0.points.first!.frame, $0.points.last!.frame) }
    }

    @Test("a ball swung on an arm makes no trajectory, over the whole frame or in a region of interest around it", arguments: [
        NormalizedRect.full,
        // The right half, where the man stands: the detector then sees a cropped frame, and the
        // cue must look beside the ball where it is in that crop.
        NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1),
    ])
    func armSwungBall(region: NormalizedRect) throws {
        let found = try Self.trajectories(in: region)
        #expect(found.isEmpty, "\(found)")
    }
}
