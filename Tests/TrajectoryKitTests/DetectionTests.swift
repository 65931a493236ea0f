import Foundation
import Testing
import TrajectoryKit

/// What the tracker relies on from `BlobDetector`, shown on frames rendered in memory with
/// known ball positions.
@Suite struct DetectionTests {
    static let width = 320
    static let height = 240

    /// Where a thrown ball's centre is in frame `frame`: x uniform, y a parabola (pixels, y down).
    static func throwPath(_ frame: Int) -> PixelPoint {
        let t = Double(frame)
        return PixelPoint(x: 30 + 10 * t, y: 200 - 18 * t + 0.8 * t * t)
    }

    static func distance(_ a: PixelPoint, _ b: PixelPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    @Test("a ball thrown across a noisy textured background: one blob per frame, centre within 0.5 px, radius within 25 %")
    func thrownBall() throws {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5)
        var detector = BlobDetector()
        let radius = 6.0
        for frame in 0..<24 {
            let truth = Self.throwPath(frame)
            let blobs = detector.detect(scene.frame([.ball(at: truth, radius: radius, luma: 220)]))
            guard frame >= 3 else {
                #expect(blobs.isEmpty, "frame \(frame): no blobs before four frames are seen")
                continue
            }
            #expect(blobs.count == 1, "frame \(frame): \(blobs)")
            let blob = try #require(blobs.first)
            #expect(Self.distance(blob.center, truth) <= 0.5, "frame \(frame): \(blob.center) vs \(truth)")
            #expect(abs(blob.radius - radius) <= 0.25 * radius, "frame \(frame): radius \(blob.radius)")
            #expect(blob.elongation < 1.3, "a sharp ball is round: \(blob.elongation)")
        }
    }

    @Test("static frames with sensor noise give no blobs", arguments: [2.0, 2.5, 3.0])
    func staticNoise(sigma: Double) {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: sigma, seed: 7)
        var detector = BlobDetector()
        var found: [Blob] = []
        for _ in 0..<30 { found += detector.detect(scene.frame()) }
        #expect(found.isEmpty)
    }

    @Test("in strong noise (sigma 6) static frames give no blobs, yet a small faint ball is found")
    func strongNoise() throws {
        var staticScene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 6, seed: 3)
        var detector = BlobDetector()
        var falseBlobs: [Blob] = []
        for _ in 0..<30 { falseBlobs += detector.detect(staticScene.frame()) }
        #expect(falseBlobs.isEmpty)

        // Radius 2.5 px, 25 grey levels above a background of gentle texture.
        var scene = DetectionScene(
            width: Self.width, height: Self.height, noiseSigma: 6, backgroundLuma: 110, textureAmplitude: 3, seed: 4)
        detector = BlobDetector()
        for frame in 0..<30 {
            let truth = PixelPoint(x: 40 + 8 * Double(frame), y: 60 + 4 * Double(frame))
            let blobs = detector.detect(scene.frame([.ball(at: truth, radius: 2.5, luma: 135)]))
            guard frame >= 3 else { continue }
            #expect(blobs.count == 1, "frame \(frame): \(blobs)")
            let blob = try #require(blobs.first)
            #expect(Self.distance(blob.center, truth) <= 1, "frame \(frame): \(blob.center) vs \(truth)")
        }
    }

    @Test("the noise estimate follows the frames' noise (within 20 % of sigma × √2 × 3/8 after smoothing)",
          arguments: [3.0, 6.0, 10.0])
    func noiseEstimate(sigma: Double) throws {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: sigma, seed: 11)
        var detector = BlobDetector()
        for _ in 0..<4 { _ = detector.detect(scene.frame()) }
        let thresholds = try #require(detector.lastThresholds)
        // Smoothing scales independent pixel noise by 3/8; a difference of two frames by √2.
        let expected = sigma * 2.0.squareRoot() * 3 / 8
        #expect(abs(thresholds.noiseSigma - expected) <= 0.2 * expected, "\(thresholds)")
        #expect(thresholds.low < thresholds.high)
    }

    /// Regions of interest (bottom-left origin) and whether a ball in the top-left quarter
    /// of the frame lies in them.
    static let regions: [(NormalizedRect, Bool)] = [
        (.full, true),
        (NormalizedRect(x: 0, y: 0.5, width: 0.5, height: 0.5), true),  // top-left quarter
        (NormalizedRect(x: 0, y: 0, width: 1, height: 0.5), false),  // bottom half
        (NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1), false),  // right half
    ]

    @Test("only blobs centred in the region of interest are reported", arguments: regions)
    func regionOfInterest(region: NormalizedRect, containsBall: Bool) {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5)
        var detector = BlobDetector(configuration: .init(regionOfInterest: region))
        for frame in 0..<10 {
            let truth = PixelPoint(x: 30 + 9 * Double(frame), y: 40 + 2 * Double(frame))
            let blobs = detector.detect(scene.frame([.ball(at: truth, radius: 5, luma: 210)]))
            guard frame >= 3 else { continue }
            #expect(blobs.count == (containsBall ? 1 : 0), "frame \(frame): \(blobs)")
            #expect(blobs.allSatisfy { Self.distance($0.center, truth) < 1 })
        }
    }

    /// A small ball in the top-left and a textured 60 px square (say, a torso) in the bottom-right.
    static func ballAndBody(frame: Int) -> (ball: PixelPoint, objects: [SceneObject]) {
        let ball = PixelPoint(x: 30 + 9 * Double(frame), y: 50 + 3 * Double(frame))
        let body = SceneObject(
            shape: .rectangle(minX: 150 + 7 * Double(frame), minY: 150, width: 60, height: 60),
            luma: 70, textureAmplitude: 40)
        return (ball, [.ball(at: ball, radius: 5, luma: 220), body])
    }

    @Test("the maximum radius excludes a large moving object and keeps the ball; the minimum does the reverse")
    func radiusLimits() {
        let bound = 12.0 / Double(Self.width)  // between the ball's 5 px and the square's 30 px
        let settings: [(name: String, configuration: BlobDetector.Configuration)] = [
            ("no limit", .init()),
            ("maximum", .init(maximumNormalizedRadius: bound)),
            ("minimum", .init(minimumNormalizedRadius: bound)),
        ]
        for (name, configuration) in settings {
            var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5)
            var detector = BlobDetector(configuration: configuration)
            for frame in 0..<10 {
                let (ball, objects) = Self.ballAndBody(frame: frame)
                let blobs = detector.detect(scene.frame(objects))
                guard frame >= 3 else { continue }
                let ballBlobs = blobs.filter { Self.distance($0.center, ball) < 1 }
                let bodyBlobs = blobs.filter { $0.center.x > 140 && $0.center.y > 140 }
                #expect(ballBlobs.count == (name == "minimum" ? 0 : 1), "\(name), frame \(frame): \(blobs)")
                #expect(bodyBlobs.isEmpty == (name == "maximum"), "\(name), frame \(frame): \(blobs)")
                #expect(ballBlobs.count + bodyBlobs.count == blobs.count, "\(name), frame \(frame): stray \(blobs)")
            }
        }
    }

    /// How long the shutter stays open, as a fraction of the frame interval, and how far along
    /// the motion the blob's centre may be from the ball's mid-exposure position. The streak is
    /// measured against an earlier frame it does not touch, each pixel weighted by how much of
    /// it the ball covers, so neither the background's texture (which changes the streak's
    /// contrast along its 40 px) nor a shared end moves the centre: at most 0.29 px here.
    static let shutters: [(openFraction: Double, alongTolerance: Double)] = [
        // The usual 180° shutter: consecutive streaks are apart.
        (0.5, 0.5),
        // Open the whole interval: each streak meets the previous one.
        (1.0, 0.5),
    ]

    @Test("a motion-blurred ball (streak 4 × its diameter): radius of the ball, elongated along the motion",
          arguments: shutters)
    func motionBlur(openFraction: Double, alongTolerance: Double) throws {
        var scene = DetectionScene(width: 640, height: Self.height, noiseSigma: 2.5)
        var detector = BlobDetector()
        let radius = 5.0
        let exposedTravel = 6 * radius  // the streak spans 30 + 10 px: 4 diameters
        let step = exposedTravel / openFraction
        for frame in 0..<(Int(560 / step) + 1) {
            let middle = PixelPoint(x: 40 + step * Double(frame), y: 120)
            let streak = SceneObject.streak(
                from: PixelPoint(x: middle.x - exposedTravel / 2, y: middle.y),
                to: PixelPoint(x: middle.x + exposedTravel / 2, y: middle.y), radius: radius, luma: 230)
            let blobs = detector.detect(scene.frame([streak]))
            guard frame >= 3 else { continue }
            // Where streaks meet, a sliver of the trailing end may come out as a blob of its own.
            let blob = try #require(blobs.max { $0.area < $1.area }, "frame \(frame)")
            if openFraction < 1 { #expect(blobs.count == 1, "frame \(frame): \(blobs)") }
            #expect(abs(blob.radius - radius) <= 0.25 * radius, "frame \(frame): radius \(blob.radius)")
            #expect(blob.elongation > 2, "frame \(frame): elongation \(blob.elongation)")
            #expect(abs(blob.orientation) < 0.1, "the streak is horizontal: \(blob.orientation)")
            #expect(abs(blob.center.y - middle.y) <= 0.5, "frame \(frame): \(blob.center) vs \(middle)")
            #expect(abs(blob.center.x - middle.x) <= alongTolerance, "frame \(frame): \(blob.center) vs \(middle)")
        }
    }

    @Test("the row scan's 64-pixel still blocks: motion only in a block's last 16 columns is found, and a run ends where a still block begins")
    func stillBlocksOfTheRowScan() throws {
        // Boxes falling side by side in a frame 333 px wide; smoothing spreads each by a pixel.
        // The scan tests columns 0–63 as one block: the first box, which reaches only columns
        // 48–63 of it, must keep it from being skipped. The second reaches columns 111–127 and
        // is followed by a still block (128–191), at whose start its rows' runs must end: the
        // third box starts right after that block, at column 192, and would otherwise join it.
        var scene = DetectionScene(width: 333, height: 200, noiseSigma: 2.5, seed: 3)
        var detector = BlobDetector()
        let boxes: [(left: Double, width: Double)] = [(49, 14), (112, 15), (193, 14)]
        for frame in 0..<9 {
            let top = 30 + 8 * Double(frame)
            let objects = boxes.map {
                SceneObject(shape: .rectangle(minX: $0.left, minY: top, width: $0.width, height: 6), luma: 210)
            }
            let blobs = detector.detect(scene.frame(objects))
            guard frame >= BlobDetector.framesWithoutMotion else { continue }
            #expect(blobs.count == boxes.count, "frame \(frame): \(blobs)")
            for box in boxes {
                let centre = PixelPoint(x: box.left + box.width / 2, y: top + 3)
                let nearest = try #require(blobs.min { Self.distance($0.center, centre) < Self.distance($1.center, centre) })
                #expect(Self.distance(nearest.center, centre) <= 0.5, "frame \(frame): \(nearest.center) vs \(centre)")
                // At most the box with two pixels of soft edge all round (smoothing and the
                // measured ring).
                #expect(Double(nearest.area) <= (box.width + 4) * 10, "frame \(frame): \(nearest)")
            }
        }
    }

    @Test("a change of frame size mid-stream starts the history afresh")
    func frameSizeChange() throws {
        var large = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5)
        var small = DetectionScene(width: 200, height: 150, noiseSigma: 2.5, seed: 2)
        var detector = BlobDetector()
        for frame in 0..<5 {
            _ = detector.detect(large.frame([.ball(at: Self.throwPath(frame), radius: 6, luma: 220)]))
        }
        #expect(detector.lastThresholds != nil)
        for frame in 0..<8 {
            let truth = PixelPoint(x: 20 + 10 * Double(frame), y: 40 + 5 * Double(frame))
            let blobs = detector.detect(small.frame([.ball(at: truth, radius: 6, luma: 220)]))
            guard frame >= 3 else {
                #expect(blobs.isEmpty && detector.lastThresholds == nil, "frame \(frame) of the new size: \(blobs)")
                continue
            }
            #expect(blobs.count == 1, "frame \(frame): \(blobs)")
            let blob = try #require(blobs.first)
            #expect(Self.distance(blob.center, truth) <= 0.5, "frame \(frame): \(blob.center) vs \(truth)")
        }
    }

    @Test("reset forgets the frames seen, and padded rows are read as the image")
    func resetAndPaddedRows() throws {
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5)
        var detector = BlobDetector()
        let padded = PlaneLayout(width: Self.width, height: Self.height, bytesPerRow: Self.width + 24)
        for frame in 0..<12 {
            if frame == 6 { detector.reset() }
            let truth = Self.throwPath(frame)
            let image = scene.frame([.ball(at: truth, radius: 6, luma: 220)])
            // Copy the image into rows with padding full of bytes that would look like motion.
            var plane = [UInt8](repeating: UInt8(frame * 37 % 256), count: padded.minimumByteCount)
            for row in 0..<Self.height {
                plane.replaceSubrange(
                    (row * padded.bytesPerRow)..<(row * padded.bytesPerRow + Self.width),
                    with: image.pixels[(row * Self.width)..<((row + 1) * Self.width)])
            }
            let blobs = detector.detect(luma: plane.span, layout: padded)
            let seenSinceStart = frame < 6 ? frame + 1 : frame - 5
            guard seenSinceStart >= 4 else {
                #expect(blobs.isEmpty, "frame \(frame)")
                continue
            }
            let blob = try #require(blobs.first)
            #expect(blobs.count == 1 && Self.distance(blob.center, truth) <= 0.5, "frame \(frame): \(blobs)")
        }
    }
}
