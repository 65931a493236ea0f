import Foundation
import TrajectoryEvaluation
#if canImport(Glibc)
import Glibc
#endif
import TrajectoryKit
import TrajectoryVideo

/// The encoder takes frames straight from the renderer.
extension VideoWriter: FrameSink {}

/// Writes catalogue scenes as real video files with their ground truth beside them, the way
/// `trajectories synth` and the sample clips are made.
public enum SceneExport {
    /// A clip on disk and what really happens in it.
    public struct Clip: Sendable {
        public var video: URL
        public var truthFile: URL
        public var truth: GroundTruth
    }

    /// x264's constant rate factor for exported clips: visible compression, like a phone's.
    public static let defaultQuality = 23

    /// The file name a scene and seed are written under, without extension: `clean-1`.
    public static func baseName(_ scene: CatalogScene, seed: UInt64) -> String {
        "\(scene.rawValue)-\(seed)"
    }

    /// Renders `scene` with `seed` into `folder` as `<scene>-<seed>.mp4` (H.264, with
    /// `crf`) and `<scene>-<seed>.truth.json`. Frames are rendered and encoded one at a time.
    /// Files are written under temporary names and renamed at the end, so a failure never
    /// leaves a clip without its truth, or half a clip.
    public static func write(
        _ scene: CatalogScene, seed: UInt64, to folder: URL, crf: Int = defaultQuality, frameRate: Int? = nil
    ) throws -> Clip {
        let script = scene.script(seed: seed, frameRate: frameRate.map(Double.init))
        let name = baseName(scene, seed: seed)
        let video = folder.appendingPathComponent("\(name).mp4")
        let truthFile = folder.appendingPathComponent("\(name).truth.json")
        let partialVideo = folder.appendingPathComponent(".\(name).partial.mp4")
        let frameRate = FrameRate(frames: Int(script.frameRate.rounded()))
        var writer = try VideoWriter(
            path: partialVideo.path, width: script.width, height: script.height,
            settings: VideoWriter.Settings(frameRate: frameRate, crf: crf))
        let truth = try script.writeClip(to: &writer)
        try writer.finish()
        try TruthJSON.encode(truth).write(to: truthFile, options: .atomic)
        // rename(2) replaces an older clip of the same name in one step.
        guard rename(partialVideo.path, video.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: video.path])
        }
        return Clip(video: video, truthFile: truthFile, truth: truth)
    }
}
