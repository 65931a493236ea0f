import Foundation
import Testing
@testable import TrajectoryKit

/// A hand-held camera: the detector measures how the picture moved and compares each frame with
/// the earlier ones where the same point of the scene was, so the shaken background shows no
/// motion while a ball still does, found where it shows.
@Suite struct DetectionShakeTests {
    static let width = 320
    static let height = 240

    /// Where the camera has moved the picture in frame `frame`: a few pixels either way, by
    /// fractions of a pixel, up to 3 px from one frame to the next.
    static func shake(_ frame: Int) -> PixelPoint {
        let t = Double(frame)
        return PixelPoint(x: 4 * sin(0.45 * t) + 1.3 * sin(1.7 * t + 1), y: 3 * cos(0.38 * t) + 1.1 * sin(2.3 * t))
    }

    /// Sharp-edged boxes, dark and bright, fixed in the scene: a shift by a fraction of a pixel
    /// changes their edges by up to a hundred grey levels. The bright ones stay clear of the
    /// thrown ball's path (``DetectionTests/throwPath(_:)``), where a ball of their grey would vanish.
    static let boxes: [SceneObject] = [
        SceneObject(shape: .rectangle(minX: 40.3, minY: 30.6, width: 50, height: 24), luma: 20),
        SceneObject(shape: .rectangle(minX: 150.5, minY: 10.2, width: 18, height: 70), luma: 235),
        SceneObject(shape: .rectangle(minX: 120.8, minY: 170.1, width: 90, height: 12), luma: 30),
        SceneObject(shape: .rectangle(minX: 280.2, minY: 120.7, width: 30, height: 30), luma: 220),
    ]

    static func shakenScene(seed: UInt64 = 1) -> DetectionScene {
        var scene = DetectionScene(width: width, height: height, noiseSigma: 2.5, seed: seed)
        scene.scenery = boxes
        return scene
    }

    /// How close the measured motion comes to the truth on these small, noisy frames (σ 2.5,
    /// gentle texture): a few hundred tracking points, each a single noisy pixel, and sharp
    /// edges that bilinear blending follows only to a few hundredths of a pixel.
    static let motionTolerance = 0.1

    /// Checks the detector's last measured motion against the camera's from `frame` − 1 to
    /// `frame`, the picture offset by `offsets(frame)` in each frame (by default the shake).
    static func expectMotionMeasured(
        by detector: BlobDetector, frame: Int, offsets: (Int) -> PixelPoint = shake
    ) throws {
        let motion = try #require(detector.lastCameraMotion, "frame \(frame)")
        let truth = PixelPoint(x: offsets(frame).x - offsets(frame - 1).x, y: offsets(frame).y - offsets(frame - 1).y)
        #expect(
            abs(motion.dx - truth.x) <= motionTolerance && abs(motion.dy - truth.y) <= motionTolerance,
            "frame \(frame): \(motion) vs \(truth)")
    }

    /// How the camera moves in ``measuresMotion(camera:)``.
    enum CameraPath: CaseIterable, Sendable {
        /// ``DetectionShakeTests/shake(_:)``.
        case shake
        /// ``DetectionShakeTests/panOffset(_:)``: a pan that speeds up to 40 px a frame, well
        /// beyond the ±22 px a search around none reaches, then stops dead.
        case fastPan

        func offset(_ frame: Int) -> PixelPoint {
            switch self {
            case .shake: DetectionShakeTests.shake(frame)
            case .fastPan: DetectionShakeTests.panOffset(frame)
            }
        }
    }

    @Test(
        "the camera's motion from frame to frame is measured to within a tenth of a pixel, a shake's, or a pan's that speeds up to 40 px a frame and stops dead",
        arguments: CameraPath.allCases)
    func measuresMotion(camera: CameraPath) throws {
        var scene = Self.shakenScene()
        var detector = BlobDetector()
        for frame in 0..<30 {
            scene.cameraOffset = camera.offset(frame)
            _ = detector.detect(scene.frame())
            guard frame >= 1 else {
                #expect(detector.lastCameraMotion == nil, "no motion before two frames")
                continue
            }
            try Self.expectMotionMeasured(by: detector, frame: frame, offsets: camera.offset)
        }
    }

    @Test("a camera held still, then jerked by 7 px and shaken: still reads none, and every move is measured")
    func stillThenMoving() throws {
        var scene = Self.shakenScene()
        var detector = BlobDetector()
        // Still for 12 frames, then moved by (7.4, -5.2) px at once, then shaken as above.
        func offset(_ frame: Int) -> PixelPoint {
            guard frame >= 12 else { return PixelPoint(x: 0, y: 0) }
            let shake = Self.shake(frame - 12)
            return PixelPoint(x: 7.4 + shake.x - Self.shake(0).x, y: -5.2 + shake.y - Self.shake(0).y)
        }
        for frame in 0..<30 {
            scene.cameraOffset = offset(frame)
            _ = detector.detect(scene.frame())
            guard frame >= 1 else { continue }
            let motion = try #require(detector.lastCameraMotion, "frame \(frame)")
            let truth = PixelPoint(x: offset(frame).x - offset(frame - 1).x, y: offset(frame).y - offset(frame - 1).y)
            if truth.x == 0 && truth.y == 0 {
                #expect(motion == .zero, "frame \(frame): \(motion)")
            } else {
                #expect(
                    abs(motion.dx - truth.x) <= Self.motionTolerance && abs(motion.dy - truth.y) <= Self.motionTolerance,
                    "frame \(frame): \(motion) vs \(truth)")
            }
        }
    }

    @Test("a camera held still, then moved, nudged under a pixel or jerked far (within the ±22 px searched): the move is measured, not read as still",
          arguments: [
              PixelPoint(x: 0.6, y: 0), PixelPoint(x: -0.3, y: 0.45), PixelPoint(x: 0.2, y: -0.7),
              PixelPoint(x: 17.4, y: -12.2), PixelPoint(x: -19.6, y: 8.3), PixelPoint(x: 6.5, y: 18.8),
          ])
    func stillThenMoved(move: PixelPoint) throws {
        var scene = Self.shakenScene()
        var detector = BlobDetector()
        // Still for six frames, so the detector keeps its tracking points and takes its shortcut
        // for a still camera, which must not answer "still" for the move that follows.
        for frame in 0..<7 {
            scene.cameraOffset = frame < 6 ? PixelPoint(x: 0, y: 0) : move
            _ = detector.detect(scene.frame())
        }
        let motion = try #require(detector.lastCameraMotion)
        #expect(
            abs(motion.dx - move.x) <= Self.motionTolerance && abs(motion.dy - move.y) <= Self.motionTolerance,
            "\(motion) vs \(move)")
    }

    /// A camera that starts to move must be measured on whichever frame it does. While it is
    /// still, the detector keeps its tracking points for eight frames, reading each new frame's
    /// grey levels and gradients into them; the frame after the points were chosen (the third
    /// of a stream, and every eighth after) is where that shows: points left with the levels of
    /// the frame they were chosen in would match that frame, the one before, exactly, and so
    /// read the move as none.
    @Test(
        "a camera held still, then moved on any frame of its tracking points' cycle: the move is measured, not read as still",
        arguments: [PixelPoint(x: 0.6, y: 0.2), PixelPoint(x: 7.4, y: -5.2)])
    func movedAnywhereInThePointCycle(move: PixelPoint) throws {
        // Still for two frames (the least that takes the shortcut for a still camera) up to a
        // whole cycle of the points more.
        for stillFrames in 2...(2 + CameraMotionEstimator.pointChoiceInterval) {
            var scene = Self.shakenScene()
            var detector = BlobDetector()
            for frame in 0...stillFrames {
                scene.cameraOffset = frame < stillFrames ? PixelPoint(x: 0, y: 0) : move
                _ = detector.detect(scene.frame())
            }
            let motion = try #require(detector.lastCameraMotion)
            #expect(
                abs(motion.dx - move.x) <= Self.motionTolerance && abs(motion.dy - move.y) <= Self.motionTolerance,
                "moved after \(stillFrames) still frames: \(motion) vs \(move)")
        }
    }

    /// A score bar burned into the picture, as a broadcast shows one: a band of small sharp
    /// marks across the bottom sixth of the frame, where it stays when the camera moves.
    static let scoreBar: [SceneObject] = {
        var random = SeededGenerator(seed: 1)
        return stride(from: Double(height - 40), to: Double(height), by: 4).flatMap { top in
            stride(from: 0, to: Double(width), by: 4).map { left in
                SceneObject(
                    shape: .rectangle(minX: left, minY: top, width: 4, height: 4), luma: .random(in: 30...200, using: &random))
            }
        }
    }()

    /// The shortcut for a still camera answers "still" only for a fit as tight as a still
    /// camera's. Over a score bar that stays put, a camera jerked far leaves the bar's points
    /// (a fifth of them) matching the frame before where they are, so that no whole-pixel
    /// offset near none matches better than none; the background's points, misaligned by the
    /// jerk, then spread the fit from none so wide (a standard error six to eight times a still
    /// camera's) that the jerk would pass for no motion within it.
    @Test(
        "a camera held still over a score bar burned into the picture, then jerked far: the jerk is measured, not read as still",
        arguments: [
            PixelPoint(x: -16.3, y: -5.3), PixelPoint(x: 11.7, y: -8.1), PixelPoint(x: 16.9, y: 1.4),
            PixelPoint(x: -4.7, y: 10.9),
        ])
    func jerkedBehindScoreBar(move: PixelPoint) throws {
        var scene = Self.shakenScene()
        var detector = BlobDetector()
        for frame in 0..<5 {
            scene.cameraOffset = frame < 4 ? PixelPoint(x: 0, y: 0) : move
            _ = detector.detect(scene.frame(Self.scoreBar))
        }
        let motion = try #require(detector.lastCameraMotion)
        #expect(
            abs(motion.dx - move.x) <= Self.motionTolerance && abs(motion.dy - move.y) <= Self.motionTolerance,
            "\(motion) vs \(move)")
    }

    /// How far a pan that speeds up has gone by frame `frame`: 5 px in the first frame, 5 px a
    /// frame more in each frame after, up to 40 px a frame, until it stops dead after frame 24.
    static func panTravel(_ frame: Int) -> Double {
        (0..<min(max(frame, 0), 24) + 1).map { min(5 * Double($0), 40) }.reduce(0, +)
    }

    /// Where a camera panning ever faster to the left, and down by four tenths as much, has
    /// moved the picture: up to 40 px and 16 px a frame, then none from frame 25 on.
    static func panOffset(_ frame: Int) -> PixelPoint {
        PixelPoint(x: -panTravel(frame), y: 0.4 * panTravel(frame))
    }

    @Test("a shaken still scene with sharp edges gives no blobs", arguments: [1, 2, 3] as [UInt64])
    func shakenStillScene(seed: UInt64) {
        var scene = Self.shakenScene(seed: seed)
        var detector = BlobDetector()
        var found: [(Int, Blob)] = []
        for frame in 0..<40 {
            scene.cameraOffset = Self.shake(frame + Int(seed) * 7)
            found += detector.detect(scene.frame()).map { (frame, $0) }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("a ball thrown across a shaken scene: one blob per frame, where the ball shows, within 0.5 px")
    func ballInShakenScene() throws {
        var scene = Self.shakenScene()
        var detector = BlobDetector()
        for frame in 0..<24 {
            scene.cameraOffset = Self.shake(frame)
            // The ball's path in the scene, shown moved by the camera like everything else.
            let path = DetectionTests.throwPath(frame)
            let shown = PixelPoint(x: path.x + scene.cameraOffset.x, y: path.y + scene.cameraOffset.y)
            let blobs = detector.detect(scene.frame([.ball(at: shown, radius: 6, luma: 220)]))
            guard frame >= 3 else { continue }
            #expect(blobs.count == 1, "frame \(frame): \(blobs)")
            let blob = try #require(blobs.first)
            #expect(DetectionTests.distance(blob.center, shown) <= 0.5, "frame \(frame): \(blob.center) vs \(shown)")
        }
    }

    @Test("a still camera reads as exactly still, even with a large object moving across the frame")
    func stillCamera() {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5, seed: 5)
        scene.scenery = Self.boxes
        var detector = BlobDetector()
        for frame in 0..<20 {
            // A textured body a third of the frame high walking across it.
            let body = SceneObject(
                shape: .rectangle(minX: 20 + 9 * Double(frame), minY: 90, width: 70, height: 80), luma: 90,
                textureAmplitude: 40)
            _ = detector.detect(scene.frame([body]))
            if frame >= 1 { #expect(detector.lastCameraMotion == .zero, "frame \(frame): \(String(describing: detector.lastCameraMotion))") }
        }
    }

    @Test("the shake is measured on the background, not on a large object moving across it")
    func largeMover() throws {
        var scene = Self.shakenScene(seed: 4)
        var detector = BlobDetector()
        for frame in 0..<20 {
            scene.cameraOffset = Self.shake(frame)
            let body = SceneObject(
                shape: .rectangle(minX: 20 + 9 * Double(frame), minY: 80, width: 90, height: 100), luma: 90,
                textureAmplitude: 40)
            _ = detector.detect(scene.frame([body]))
            guard frame >= 1 else { continue }
            try Self.expectMotionMeasured(by: detector, frame: frame)
        }
    }
}

/// The whole request on a hand-held camera's frames: the tracker is told the camera's motion
/// the detector measured, in full-frame pixels, so a thrown ball's flight stays one parabola.
@Suite struct RequestCameraShakeTests {
    /// Twice the detection test's size, handed over shrunk by 2 as the decoding thread does
    /// for 1080p, or whole, so that the motion measured in analysed pixels must be scaled back.
    static let width = 2 * DetectionShakeTests.width, height = 2 * DetectionShakeTests.height

    /// The camera's shake in analysed pixels: `DetectionShakeTests.shake` with a faster jitter
    /// on top. A slow sway bends a ten-point window less than a ball's noise, so only a fast
    /// jitter, taken off at the wrong scale, shows up in a flight's fit.
    static func shake(_ frame: Int) -> PixelPoint {
        let slow = DetectionShakeTests.shake(frame), t = Double(frame)
        return PixelPoint(x: slow.x + 2.5 * sin(2.1 * t), y: slow.y + 2 * sin(2.6 * t + 0.5))
    }

    /// The thrown ball of `DetectionShakeTests` at twice the size, shown moved by the camera.
    static func shown(_ frame: Int) -> PixelPoint {
        let path = DetectionTests.throwPath(frame), shake = Self.shake(frame)
        return PixelPoint(x: 2 * (path.x + shake.x), y: 2 * (path.y + shake.y))
    }

    /// How frames reach the request: whole, handed over shrunk by 2, or whole and shrunk by
    /// the request itself (its `minimumAnalysisLongSide` lowered to 320).
    static let handovers: [(shrunkBy: Int, minimumLongSide: Int)] = [(1, 800), (2, 800), (1, 320)]

    @Test(
        "a ball thrown across a shaken scene is one trajectory, within 1.5 px of where it shows, whether frames come whole or shrunk, by the decoder or by the request",
        arguments: 0..<3)
    func shakenThrow(handover: Int) throws {
        let (reduction, minimumLongSide) = Self.handovers[handover]
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5, seed: 1)
        scene.scenery = DetectionShakeTests.boxes.map { box in
            guard case .rectangle(let minX, let minY, let width, let height) = box.shape else { return box }
            return SceneObject(shape: .rectangle(minX: 2 * minX, minY: 2 * minY, width: 2 * width, height: 2 * height), luma: box.luma)
        }
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.minimumAnalysisLongSide = minimumLongSide
        let latest = LatestObservations(of: request)
        let handler = SequenceRequestHandler()
        let shrunkSize = FrameShrinking.shrunkSize(width: Self.width, height: Self.height, by: reduction)
        let shrunkLayout = PlaneLayout(width: shrunkSize.width, height: shrunkSize.height, bytesPerRow: shrunkSize.width)
        var shrunk = [UInt8](repeating: 0, count: shrunkLayout.minimumByteCount)
        for frame in 0..<24 {
            let shake = Self.shake(frame)
            scene.cameraOffset = PixelPoint(x: 2 * shake.x, y: 2 * shake.y)
            let image = scene.frame([.ball(at: Self.shown(frame), radius: 12, luma: 220)])
            do {
                var output = shrunk.mutableSpan
                FrameShrinking.shrink(
                    image.pixels.span, layout: image.layout, by: reduction, into: &output,
                    destinationBytesPerRow: shrunkLayout.bytesPerRow)
            }
            try handler.perform(
                [request], luma: shrunk.span, layout: shrunkLayout, shrunkBy: reduction, frameWidth: Self.width,
                frameHeight: Self.height, frame: FrameStamp(index: frame, time: Double(frame) / 30))
        }
        #expect(request.analysisReduction == 2 || minimumLongSide == 800 && reduction == 1)
        // The motion image needs three earlier frames: the ball is found from frame 3 on.
        try Self.expectOneTrajectory(in: latest.trajectories, points: 19, shownAt: Self.shown)
    }

    /// Checks that `trajectories` hold one trajectory of at least `points` points, each within
    /// 1.5 px of where the ball shows in its frame.
    static func expectOneTrajectory(
        in trajectories: [TrajectoryObservation], points: Int, shownAt truth: (Int) -> PixelPoint
    ) throws {
        try #require(trajectories.count == 1, "\(trajectories.map { $0.points.map(\.frame) })")
        #expect(trajectories[0].points.count >= points)
        for point in trajectories[0].points {
            let shown = truth(point.frame)
            let distance = hypot(
                point.location.x * Double(width) - shown.x, (1 - point.location.y) * Double(height) - shown.y)
            #expect(distance < 1.5, "frame \(point.frame)")
        }
    }

    /// A camera that follows a ball thrown far across the scene: it pans to the left faster and
    /// faster (``DetectionShakeTests/panTravel(_:)``), up to 40 px a frame, and down by a tenth
    /// as much, so that the ball stays in view while the background streams past it.
    static func followingPan(_ frame: Int) -> PixelPoint {
        let travel = DetectionShakeTests.panTravel(frame)
        return PixelPoint(x: -travel, y: 0.1 * travel)
    }

    /// The followed ball's path in the scene, and where it shows in the frame.
    static func followedBall(_ frame: Int) -> PixelPoint {
        let t = Double(frame)
        return PixelPoint(x: 100 + 38 * t, y: 380 - 36 * t + 1.6 * t * t)
    }

    static func shownFollowedBall(_ frame: Int) -> PixelPoint {
        let path = followedBall(frame), pan = followingPan(frame)
        return PixelPoint(x: path.x + pan.x, y: path.y + pan.y)
    }

    @Test("a ball followed by a camera panning ever faster, up to 40 px a frame, is one trajectory, within 1.5 px of where it shows")
    func followedByFastPan() throws {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5, seed: 1)
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let latest = LatestObservations(of: request)
        let handler = SequenceRequestHandler()
        for frame in 0..<22 {
            scene.cameraOffset = Self.followingPan(frame)
            let image = scene.frame([.ball(at: Self.shownFollowedBall(frame), radius: 8, luma: 220)])
            try handler.perform(
                [request], on: image, frame: FrameStamp(index: frame, time: Double(frame) / 30))
        }
        // The motion image needs three earlier frames: the ball is found from frame 3 on.
        try Self.expectOneTrajectory(in: latest.trajectories, points: 19, shownAt: Self.shownFollowedBall)
    }

    /// The request adds up only the motions the detector measured clearly into where the camera
    /// has gone. On a picture of nothing but noise (a dark scene filmed at a high gain) whose
    /// codec copies patches of the last frame's noise from a couple of pixels away, the
    /// detector finds motions of a pixel or two that explain little of the picture: harmless
    /// for comparing frames, but added up they would jerk the ball's path in the scene by as
    /// much every frame, and the tracker would lose its flight.
    @Test(
        "a ball thrown across a picture of noise whose codec copies patches of it from two pixels away is one whole trajectory",
        arguments: [1, 2, 3] as [UInt64])
    func throwOverCopiedNoise(seed: UInt64) throws {
        let (width, height) = (DetectionShakeTests.width, DetectionShakeTests.height)
        var scene = CopiedNoiseScene(width: width, height: height, noiseSigma: 6, copiedFraction: 0.2, seed: seed)
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let latest = LatestObservations(of: request)
        let handler = SequenceRequestHandler()
        // The same frames through a detector of their own, to see the false motions are there.
        var detector = BlobDetector()
        var framesMoved = 0
        // Until the ball drops out of the bottom of the frame after frame 24.
        let frames = 0..<25
        for frame in frames {
            let image = scene.frame([.ball(at: DetectionTests.throwPath(frame), radius: 6, luma: 210)])
            _ = detector.detect(image)
            if let motion = detector.lastCameraMotion, motion != .zero { framesMoved += 1 }
            try handler.perform([request], on: image, frame: FrameStamp(index: frame, time: Double(frame) / 30))
        }
        #expect(framesMoved >= frames.count / 2, "the noise gives false motions in \(framesMoved) frames")
        let trajectories = latest.trajectories
        try #require(trajectories.count == 1, "\(trajectories.map { $0.points.map(\.frame) })")
        // The motion image needs three earlier frames: the ball is found from frame 3 on.
        #expect(trajectories[0].points.map(\.frame) == Array(3..<frames.upperBound))
        for point in trajectories[0].points {
            let truth = DetectionTests.throwPath(point.frame)
            let location = point.location.pixels(width: width, height: height)
            #expect(DetectionTests.distance(location, truth) < 1.5, "frame \(point.frame)")
        }
    }
}
