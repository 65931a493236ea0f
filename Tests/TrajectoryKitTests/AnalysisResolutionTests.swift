import Foundation
import Testing
import TrajectoryKit

/// Analysing frames shrunk (`BlobDetector.Configuration.analysisReduction`), which a request
/// chooses by frame size (`minimumAnalysisLongSide`) and by `targetFrameTime`.
@Suite struct AnalysisResolutionTests {
    @Test(
        "a request shrinks frames by 2 or 4 while their long side stays at least minimumAnalysisLongSide",
        arguments: [
            (1920, 1080, 800, 2), (1280, 720, 800, 1), (3840, 2160, 800, 4), (1080, 1920, 800, 2),
            (1920, 1080, Int.max, 1), (1280, 720, 640, 2), (640, 360, 100, 4),
        ])
    func reductionBySize(width: Int, height: Int, minimumLongSide: Int, expected: Int) throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.minimumAnalysisLongSide = minimumLongSide
        try SequenceRequestHandler().perform(
            [request], on: LumaImage(width: width, height: height, fill: 90), frame: FrameStamp(index: 0, time: 0))
        #expect(request.analysisReduction == expected)
    }

    @Test("a frame handed over shrunk more than the request would shrink it reports the reduction it was analysed at", arguments: [1, 2, 4])
    func reductionOfAShrunkFrame(shrunkBy: Int) throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)  // 1280 × 720: analysed as it is
        let size = FrameShrinking.shrunkSize(width: 1280, height: 720, by: shrunkBy)
        let plane = [UInt8](repeating: 90, count: size.width * size.height)
        try SequenceRequestHandler().perform(
            [request], luma: plane.span, layout: PlaneLayout(width: size.width, height: size.height, bytesPerRow: size.width),
            shrunkBy: shrunkBy, frameWidth: 1280, frameHeight: 720, frame: FrameStamp(index: 0, time: 0))
        #expect(request.analysisReduction == shrunkBy)
    }

    /// A ball of radius 10 px crossing a noisy textured 1280 × 720 frame at 14 px a frame.
    static func ballCentre(frame: Int) -> PixelPoint { PixelPoint(x: 300.3 + 14 * Double(frame), y: 360.6 - 3 * Double(frame)) }
    static let ballRadius = 10.0
    static func distance(_ a: PixelPoint, _ b: PixelPoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
    static let frames: [LumaImage] = {
        var scene = DetectionScene(width: 1280, height: 720, noiseSigma: 2, seed: 3)
        return (0..<8).map { scene.frame([.ball(at: ballCentre(frame: $0), radius: ballRadius, luma: 200)]) }
    }()

    @Test("a detector analysing shrunk frames reports the ball where it is, in full-frame pixels", arguments: [1, 2, 4])
    func reducedDetection(reduction: Int) throws {
        var detector = BlobDetector()
        detector.configuration.analysisReduction = reduction
        var blobs: [Blob] = []
        for frame in Self.frames { blobs = detector.detect(frame) }
        let truth = Self.ballCentre(frame: Self.frames.count - 1)
        let ball = try #require(blobs.min { Self.distance($0.center, truth) < Self.distance($1.center, truth) })
        // Each analysed pixel is `reduction` frame pixels across: a centroid to a tenth of one.
        #expect(Self.distance(ball.center, truth) < 0.25 + 0.1 * Double(reduction))
        #expect(abs(ball.radius - Self.ballRadius) < 0.2 * Self.ballRadius)
        #expect(blobs.count == 1)
    }

    @Test(
        "a region of interest on frames analysed shrunk, shrunk by the request or before it, reports its flight in full-frame pixels within 1.5 px",
        arguments: [false, true])
    func regionOfInterestOnShrunkFrames(shrunkBeforehand: Bool) throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        // 640 × 360 frames analysed at 320 × 180; the large ball's path, with room around it.
        request.minimumAnalysisLongSide = 320
        request.regionOfInterest = NormalizedRect(x: 0.5, y: 0, width: 0.45, height: 0.6)
        let trajectories = try Self.trajectories(of: request) { _ in shrunkBeforehand }
        #expect(request.analysisReduction == 2)
        try RequestTests.expectOnlyTheLargeFlight(trajectories, within: 1.5)
    }

    /// Which frames are handed over already shrunk.
    enum ShrunkFrames: CaseIterable, Sendable {
        /// Every frame, as a decoding lane copies them.
        case all
        /// Frames 0–13 and 28–39, the others whole: as the first decoding lane hands them over,
        /// whole before the cut where the second lane starts and shrunk after.
        case inStretches

        func include(_ index: Int) -> Bool { self == .all || index < 14 || index >= 28 }
    }

    @Test(
        "frames handed over shrunk give the very trajectories of frames the request shrinks, with a region of interest whose size rounds differently at the two sizes",
        arguments: ShrunkFrames.allCases)
    func shrunkFramesGiveTheSameTrajectories(shrunkBeforehand: ShrunkFrames) throws {
        func request() throws -> DetectTrajectoriesRequest {
            let request = try DetectTrajectoriesRequest(trajectoryLength: 10, makeUUID: SequentialIDs().next)
            request.minimumAnalysisLongSide = 320
            // Its crop with the margin is 341 × 317 frame pixels: rounded up to whole blocks of
            // 4 it is 348 × 324 whole and 176 × 164 (352 × 328) shrunk, unless the crop is
            // worked out at the analysed size for both.
            request.regionOfInterest = NormalizedRect(x: 0.5, y: 0.3, width: 0.43, height: 0.7)
            return request
        }
        let shrunkByTheRequest = try Self.trajectories(of: request()) { _ in false }
        try RequestTests.expectOnlyTheLargeFlight(shrunkByTheRequest, within: 1.5)
        let handedOverShrunk = try Self.trajectories(of: request(), shrunkBeforehand: shrunkBeforehand.include)
        #expect(handedOverShrunk.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            == shrunkByTheRequest.sorted { $0.uuid.uuidString < $1.uuid.uuidString })
    }

    /// Runs `request` over ``RequestTests/frames``, handing over shrunk by 2 the frames whose
    /// index `shrunkBeforehand` picks, and returns every trajectory's final observation.
    static func trajectories(
        of request: DetectTrajectoriesRequest, shrunkBeforehand: (Int) -> Bool
    ) throws -> [TrajectoryObservation] {
        let latest = LatestObservations(of: request)
        let handler = SequenceRequestHandler()
        for (index, frame) in RequestTests.frames.enumerated() {
            let stamp = FrameStamp(index: index, time: Double(index) / RequestTests.frameRate)
            guard shrunkBeforehand(index) else {
                try handler.perform([request], on: frame, frame: stamp)
                continue
            }
            // As the decoding thread hands frames over: shrunk while copied, the frame's size given.
            let size = FrameShrinking.shrunkSize(width: frame.layout.width, height: frame.layout.height, by: 2)
            var shrunk = [UInt8](repeating: 0, count: size.width * size.height)
            var destination = shrunk.mutableSpan
            FrameShrinking.shrink(frame.pixels.span, layout: frame.layout, by: 2, into: &destination, destinationBytesPerRow: size.width)
            try handler.perform(
                [request], luma: shrunk.span, layout: PlaneLayout(width: size.width, height: size.height, bytesPerRow: size.width),
                shrunkBy: 2, frameWidth: frame.layout.width, frameHeight: frame.layout.height, frame: stamp)
        }
        return latest.trajectories
    }

    @Test("a target frame time no frame can meet shrinks the frames to the smallest allowed, and the large flight is still found")
    func unreachableTarget() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.targetFrameTime = 1e-9
        let (trajectories, _) = try RequestTests.run(request)
        // 640 × 360 frames: shrunk twice they keep 320 px on the long side, four times 160 (below 240).
        #expect(request.analysisReduction == 2)
        let large = try #require(trajectories.first { RequestTests.side(of: $0) == "large" })
        #expect(RequestTests.meanError(of: large, from: RequestTests.large) < 1.5)
    }

    @Test("a target frame time every frame meets keeps the default resolution and the same results")
    func generousTarget() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10, makeUUID: SequentialIDs().next)
        request.targetFrameTime = 100
        let withTarget = try RequestTests.run(request).trajectories
        #expect(request.analysisReduction == 1)
        let plain = try RequestTests.run(DetectTrajectoriesRequest(trajectoryLength: 10, makeUUID: SequentialIDs().next))
        #expect(withTarget.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            == plain.trajectories.sorted { $0.uuid.uuidString < $1.uuid.uuidString })
    }

    @Test("a target frame time or analysis size that makes no sense is refused with its name", arguments: [0, -1, Double.nan, Double.infinity])
    func invalidTarget(seconds: Double) throws {
        try RequestTests.expectRefused("targetFrameTime") { $0.targetFrameTime = seconds }
        try RequestTests.expectRefused("minimumAnalysisLongSide") { $0.minimumAnalysisLongSide = 0 }
    }
}

