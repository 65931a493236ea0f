import TrajectoryKit
import TrajectorySynth
import TrajectoryVideo

/// Every frame of a clip, decoded into memory before the timed loop starts.
public struct DecodedClip: Sendable {
    public let frames: [LumaImage]
    public let stamps: [FrameStamp]
    /// Seconds from the first frame of one pass over the clip to the first of the next.
    public let loopDuration: Double

    public init(_ clip: BenchmarkClip) throws {
        var reader = try clip.open()
        var frames: [LumaImage] = [], stamps: [FrameStamp] = []
        while let frame = try reader.nextImage() {
            frames.append(frame.image)
            stamps.append(frame.stamp)
        }
        guard stamps.count >= Self.minimumFrameCount, let first = stamps.first, let last = stamps.last else {
            throw ClipTooShort(path: clip.path, frameCount: stamps.count)
        }
        // The mean spacing of the frames, once more after the last: the cut back to the first
        // frame then comes one frame interval later, as the next frame of a stream would.
        let frameInterval = (last.time - first.time) / Double(stamps.count - 1)
        self.frames = frames
        self.stamps = stamps
        self.loopDuration = last.time - first.time + frameInterval
    }

    /// Every frame of a generated scene (`trajectories synth --scene <scene> --seed <seed>`),
    /// rendered straight into memory, without the codec's losses: for a scene busier than the
    /// bundled clips, such as foliage, whose many moving regions the detector measures on two
    /// threads.
    public init(rendering scene: CatalogScene, seed: UInt64) {
        var renderer = SceneRenderer(script: scene.script(seed: seed))
        let script = renderer.script
        frames = (0..<script.frameCount).map { renderer.render(frame: $0) }
        stamps = (0..<script.frameCount).map { FrameStamp(index: $0, time: script.time(ofFrame: $0)) }
        loopDuration = Double(script.frameCount) / script.frameRate
    }

    /// The detector reports motion from the fourth frame on; a clip needs at least that many.
    public static let minimumFrameCount = 4
}

/// A clip with fewer frames than ``DecodedClip/minimumFrameCount``.
public struct ClipTooShort: Error, CustomStringConvertible {
    public let path: String
    public let frameCount: Int
    public var description: String {
        "\(path) decodes to \(frameCount) frames; the benchmarks need at least \(DecodedClip.minimumFrameCount)"
    }
}

/// Hands out a decoded clip's frames in order, over and over, as one endless stream: frame
/// indices and times keep rising across passes, so the tracker sees time go forward, and the
/// step from the last frame back to the first looks like a cut.
public struct FrameCycle {
    public let clip: DecodedClip
    private var position = 0
    private var pass = 0

    public init(_ clip: DecodedClip) { self.clip = clip }

    /// Frames in one pass over the clip.
    public var count: Int { clip.frames.count }

    /// The next frame and its stamp in the endless stream.
    public mutating func next() -> (image: LumaImage, stamp: FrameStamp) {
        let stamp = clip.stamps[position]
        let frame = (
            image: clip.frames[position],
            stamp: FrameStamp(
                index: pass * count + stamp.index, time: stamp.time + Double(pass) * clip.loopDuration))
        position += 1
        if position == count {
            position = 0
            pass += 1
        }
        return frame
    }
}
