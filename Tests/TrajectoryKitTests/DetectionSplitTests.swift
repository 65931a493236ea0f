import Testing
import TrajectoryKit

/// A ball that passes in front of a person walking merges with the person into one moving
/// region, which is too large and too irregular to be a ball. The detector finds the person's
/// own motion and reports the part of the region that moves unlike it. (That it adds no false
/// balls on real walkers is held by the scene suite's no-ball-walkers scene.) Frames are made in
/// memory: a box lit from one side (so that all of it changes as it moves) walking 3 px a frame
/// to the right over a textured background, with fresh noise (sigma 2.5) in every frame.
@Suite struct DetectionSplitTests {
    static let frameCount = 15
    /// Frames in which the ball is inside the walker (at least 8 px from its edges), once the
    /// motion image has three earlier frames to compare with.
    static let checkedFrames = 3...11
    static let ballRadius = 4.0

    static func walker(atFrame frame: Int) -> SceneObject {
        var walker = SceneObject(
            shape: .rectangle(minX: 60 + 3 * Double(frame), minY: 40, width: 70, height: 150), luma: 30)
        walker.sidewaysShading = 2
        return walker
    }

    /// A ball that moves 1 px left and 9 px down a frame, 4 px left against the walker (more
    /// than its diameter a frame): from 55 px into it to 11 px from its left edge by frame 11.
    static func ballCenter(atFrame frame: Int) -> PixelPoint {
        PixelPoint(x: 115.3 - Double(frame), y: 48.6 + 9 * Double(frame))
    }

    @Test("a ball crossing in front of a walking person is found in at least 7 of its 9 frames inside the person, within 1 px")
    func ballInFrontOfWalker() {
        var scene = DetectionScene(width: 320, height: 240, noiseSigma: 2.5, seed: 3)
        var detector = BlobDetector()
        var found: [Int] = []
        var misses: [String] = []
        for frame in 0..<Self.frameCount {
            let truth = Self.ballCenter(atFrame: frame)
            let blobs = detector.detect(
                scene.frame([Self.walker(atFrame: frame), .ball(at: truth, radius: Self.ballRadius, luma: 220)]))
            guard Self.checkedFrames.contains(frame) else { continue }
            let isTheBall = { (blob: Blob) in
                DetectionTests.distance(blob.center, truth) <= 1 && abs(blob.radius - Self.ballRadius) <= 1.5
            }
            if blobs.contains(where: isTheBall) {
                found.append(frame)
            } else {
                misses.append("frame \(frame): \(blobs.map { ($0.center, $0.radius) })")
            }
        }
        #expect(found.count >= 7, "found in frames \(found); missed \(misses)")
    }
}
