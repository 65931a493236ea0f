import Foundation
import Testing
import TrajectoryKit

/// Two balls thrown at once, made in memory: a small one on the left half of the frame and a
/// large one on the right, each in free flight with motion blur, over a noisy textured
/// background. The request's filters are checked by which of the two they let through.
@Suite struct RequestTests {
    static let width = 640, height = 360, frameRate = 30.0, frameCount = 40

    struct Throw: Sendable {
        var start: PixelPoint
        var velocity: (x: Double, y: Double)
        var radius: Double
        static let gravity = 900.0  // px/s², image y down

        func center(at time: Double) -> PixelPoint {
            PixelPoint(
                x: start.x + velocity.x * time,
                y: start.y + velocity.y * time + 0.5 * Self.gravity * time * time)
        }
    }

    static let small = Throw(start: PixelPoint(x: 80, y: 300), velocity: (150, -450), radius: 4)
    static let large = Throw(start: PixelPoint(x: 560, y: 300), velocity: (-150, -450), radius: 12)

    static let frames: [LumaImage] = {
        var scene = DetectionScene(width: width, height: height, noiseSigma: 2.5, seed: 7)
        let shutter = 0.5 / frameRate
        return (0..<frameCount).map { index in
            let time = Double(index) / frameRate
            let balls = [small, large].map { ball in
                SceneObject.streak(
                    from: ball.center(at: time - shutter / 2), to: ball.center(at: time + shutter / 2),
                    radius: ball.radius, luma: 200)
            }
            return scene.frame(balls)
        }
    }()

    /// Runs `request` over the clip and returns every trajectory's final observation, plus how
    /// many frames it analysed.
    static func run(_ request: DetectTrajectoriesRequest) throws -> (trajectories: [TrajectoryObservation], analysed: Int) {
        let latest = LatestObservations(of: request)
        let handler = SequenceRequestHandler()
        for (index, frame) in frames.enumerated() {
            try handler.perform([request], on: frame, frame: FrameStamp(index: index, time: Double(index) / frameRate))
        }
        return (latest.trajectories, latest.framesAnalysed)
    }

    /// Checks that `trajectories` are the large ball's flight alone, at least 20 points of it,
    /// followed within `tolerance` pixels on average.
    static func expectOnlyTheLargeFlight(_ trajectories: [TrajectoryObservation], within tolerance: Double) throws {
        let large = try #require(trajectories.first)
        #expect(trajectories.count == 1)
        #expect(side(of: large) == "large")
        #expect(meanError(of: large, from: Self.large) < tolerance)
        #expect(large.points.count >= 20)
    }

    /// Which throw a trajectory followed, by the side of the frame it stayed on.
    static func side(of trajectory: TrajectoryObservation) -> String {
        let meanX = trajectory.points.map(\.location.x).reduce(0, +) / Double(trajectory.points.count)
        return meanX < 0.5 ? "small" : "large"
    }

    /// Mean distance in pixels between a trajectory's points and the throw's true centres.
    static func meanError(of trajectory: TrajectoryObservation, from ball: Throw) -> Double {
        let errors = trajectory.points.map { point in
            let found = point.location.pixels(width: width, height: height)
            let truth = ball.center(at: point.time)
            return ((found.x - truth.x) * (found.x - truth.x) + (found.y - truth.y) * (found.y - truth.y)).squareRoot()
        }
        return errors.reduce(0, +) / Double(errors.count)
    }

    @Test("with default settings both flights are found, each as one trajectory, within 1 px")
    func findsBoth() throws {
        let (trajectories, analysed) = try Self.run(DetectTrajectoriesRequest(trajectoryLength: 10))
        #expect(analysed == Self.frameCount)
        #expect(trajectories.map(Self.side).sorted() == ["large", "small"])
        for trajectory in trajectories {
            let ball = Self.side(of: trajectory) == "small" ? Self.small : Self.large
            #expect(Self.meanError(of: trajectory, from: ball) < 1.0)
            #expect(trajectory.points.count >= 20)
        }
    }

    @Test("a region of interest on the left half keeps the small ball and excludes the large one")
    func regionOfInterest() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.regionOfInterest = NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)
        #expect(try Self.run(request).trajectories.map(Self.side) == ["small"])

        let right = try DetectTrajectoriesRequest(trajectoryLength: 10)
        right.regionOfInterest = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        #expect(try Self.run(right).trajectories.map(Self.side) == ["large"])
    }

    @Test("with a region of interest only that part is analysed, and its flight is reported in full-frame coordinates within 1 px")
    func regionOfInterestCoordinates() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        // The large ball's path (x 560 → 380 px, y 300 → 188 px and down out of the frame), with room around it.
        request.regionOfInterest = NormalizedRect(x: 0.5, y: 0, width: 0.45, height: 0.6)
        try Self.expectOnlyTheLargeFlight(try Self.run(request).trajectories, within: 1.0)
    }

    @Test("a minimum radius between the two keeps only the large ball")
    func minimumRadius() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.objectMinimumNormalizedRadius = 8 / Double(Self.width)
        #expect(try Self.run(request).trajectories.map(Self.side) == ["large"])
    }

    @Test("a maximum radius between the two keeps only the small ball")
    func maximumRadius() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        request.objectMaximumNormalizedRadius = 8 / Double(Self.width)
        #expect(try Self.run(request).trajectories.map(Self.side) == ["small"])
    }

    @Test("a spacing of two frame periods analyses half the frames and still finds both flights")
    func spacing() throws {
        let request = try DetectTrajectoriesRequest(frameAnalysisSpacing: 2 / Self.frameRate, trajectoryLength: 5)
        let (trajectories, analysed) = try Self.run(request)
        #expect(analysed == Self.frameCount / 2)
        #expect(trajectories.map(Self.side).sorted() == ["large", "small"])
        for trajectory in trajectories {
            #expect(trajectory.points.allSatisfy { $0.frame.isMultiple(of: 2) })
        }
    }

    @Test("a spacing set between frames applies from the next one, counted from the last analysed frame")
    func spacingChangedBetweenFrames() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        let handler = SequenceRequestHandler()
        var analysed: [Int] = []
        for (index, frame) in Self.frames.prefix(12).enumerated() {
            // Every frame up to frame 4, then every third.
            if index == 5 { request.frameAnalysisSpacing = 3 / Self.frameRate }
            try handler.perform([request], on: frame, frame: FrameStamp(index: index, time: Double(index) / Self.frameRate))
            if request.resultsFrame?.index == index { analysed.append(index) }
        }
        #expect(analysed == [0, 1, 2, 3, 4, 7, 10])
    }

    @Test("a spacing set to a negative or non-finite value is refused at the next frame, naming it", arguments: [-0.5, .nan, .infinity])
    func invalidSpacingSetLater(spacing: Double) throws {
        try Self.expectRefused("frameAnalysisSpacing") { $0.frameAnalysisSpacing = spacing }
    }

    @Test("a region of interest moved across a still scene, keeping its size, finds no motion there", arguments: [0.00625, 0.0125, 0.0625, 0.1, 0.5])
    func movedRegionOfInterest(shift: Double) throws {
        // Still balls, a few pixels across, on a plain noisy background: nothing moves, but a
        // detector that compared the new part of the frame with the old would see balls appear
        // (3 or 4 blobs a frame, before the request restarted the detector on such a move).
        var scene = DetectionScene(width: Self.width, height: Self.height, noiseSigma: 2.5, textureAmplitude: 0, seed: 3)
        for index in 0..<12 {
            let center = PixelPoint(x: Double(index % 6) * 100 + 37.5, y: Double(index / 6) * 150 + 90.5)
            scene.scenery.append(SceneObject.ball(at: center, radius: 5, luma: 220))
        }
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let handler = SequenceRequestHandler()
        for index in 0..<24 {
            // A quarter of the frame, moved to the right after 12 frames.
            request.regionOfInterest = NormalizedRect(x: index < 12 ? 0.05 : 0.05 + shift, y: 0.1, width: 0.25, height: 0.5)
            try handler.perform([request], on: scene.frame(), frame: FrameStamp(index: index, time: Double(index) / Self.frameRate))
        }
        #expect(request.limitCounts.mostBlobsInAFrame == 0)
    }

    @Test("a region of interest that follows the ball, a few pixels a frame, keeps finding its flight, in full-frame coordinates within 1.5 px")
    func followingRegionOfInterest() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        let latest = LatestObservations(of: request)
        let handler = SequenceRequestHandler()
        for (index, frame) in Self.frames.enumerated() {
            let time = Double(index) / Self.frameRate
            // 0.3 of the frame wide, centred on the large ball's column (within the frame): it
            // moves 5 px a frame.
            let left = min(0.7, Self.large.center(at: time).x / Double(Self.width) - 0.15)
            request.regionOfInterest = NormalizedRect(x: left, y: 0, width: 0.3, height: 0.6)
            try handler.perform([request], on: frame, frame: FrameStamp(index: index, time: time))
        }
        try Self.expectOnlyTheLargeFlight(latest.trajectories, within: 1.5)
    }

    @Test("settings outside their range are refused with the setting's name")
    func invalidSettings() throws {
        #expect(throws: ConfigurationError.self) { try DetectTrajectoriesRequest(trajectoryLength: 4) }
        #expect(throws: ConfigurationError.self) { try DetectTrajectoriesRequest(frameAnalysisSpacing: -1, trajectoryLength: 10) }
        try Self.expectRefused("objectMaximumNormalizedRadius") { $0.objectMaximumNormalizedRadius = 2 }
    }

    /// Expects a request changed by `change` to be refused at its next frame, with a
    /// `ConfigurationError` naming `parameter`: settings are plain properties, checked when used.
    static func expectRefused(
        _ parameter: String, sourceLocation: SourceLocation = #_sourceLocation,
        after change: (DetectTrajectoriesRequest) -> Void
    ) throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 10)
        change(request)
        let error = #expect(throws: ConfigurationError.self, sourceLocation: sourceLocation) {
            try SequenceRequestHandler().perform([request], on: frames[0], frame: FrameStamp(index: 0, time: 0))
        }
        #expect(error?.parameter == parameter, sourceLocation: sourceLocation)
    }
}

/// The latest observation of every trajectory a request reports, gathered as it reports them,
/// and how many frames it analysed.
final class LatestObservations {
    private var byUUID: [UUID: TrajectoryObservation] = [:]
    private(set) var framesAnalysed = 0

    init(of request: DetectTrajectoriesRequest) {
        request.completionHandler = { [unowned self] request in
            framesAnalysed += 1
            for observation in request.results ?? [] { byUUID[observation.uuid] = observation }
        }
    }

    var trajectories: [TrajectoryObservation] { Array(byUUID.values) }
}
