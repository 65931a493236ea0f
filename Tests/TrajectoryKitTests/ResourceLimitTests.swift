import Foundation
import Testing
import TrajectoryKit

/// A scene with a thousand moving specks (snow, confetti, a flock) stays bounded: the request
/// keeps at most `maximumBlobsPerFrame` blobs and `maximumLiveTracks` tracks, and says so once.
@Suite struct ResourceLimitTests {
    /// `count` bright 3×3 specks on a dark 640×480 frame, each drifting 3 pixels a frame in its
    /// own direction, wrapping at the edges.
    struct Specks {
        let width = 640, height = 480
        var positions: [(x: Double, y: Double)] = []
        var velocities: [(x: Double, y: Double)] = []

        init(count: Int) {
            var generator = SeededGenerator(seed: 7)
            for _ in 0..<count {
                positions.append((.random(in: 0..<640, using: &generator), .random(in: 0..<480, using: &generator)))
                let angle = Double.random(in: 0..<(2 * .pi), using: &generator)
                velocities.append((3 * cos(angle), 3 * sin(angle)))
            }
        }

        func image(_ frame: Int) -> LumaImage {
            var image = LumaImage(width: width, height: height, fill: 40)
            for (position, velocity) in zip(positions, velocities) {
                let x = Int(position.x + velocity.x * Double(frame)), y = Int(position.y + velocity.y * Double(frame))
                for dy in 0..<3 {
                    for dx in 0..<3 {
                        image[((x + dx) % width + width) % width, ((y + dy) % height + height) % height] = 230
                    }
                }
            }
            return image
        }
    }

    /// Runs `request` over `frames` frames of `specks`; the most observations any frame gave.
    @discardableResult
    static func run(_ request: DetectTrajectoriesRequest, on specks: Specks, frames: Int = 12) throws -> Int {
        let handler = SequenceRequestHandler()
        var mostObservations = 0
        for index in 0..<frames {
            try handler.perform([request], on: specks.image(index), frame: FrameStamp(index: index, time: Double(index) / 30))
            mostObservations = max(mostObservations, request.results?.count ?? 0)
        }
        return mostObservations
    }

    @Test("a thousand specks exceed the default blob limit: the largest 500 are kept, with one warning")
    func blobLimit() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        try Self.run(request, on: Specks(count: 1000))
        // The first frames build the detector's history and find nothing.
        #expect(request.limitCounts.framesOverBlobLimit >= 6)
        #expect(request.limitCounts.mostBlobsInAFrame > 500)
        let blobWarnings = request.limitWarnings.filter { $0.contains("moving blobs") }
        #expect(blobWarnings.count == 1)
        #expect(blobWarnings.first?.contains("the largest 500 of each were kept") == true)
    }

    @Test("with a low track limit, new tracks wait for a free place and the warning says how many did not start")
    func trackLimit() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        request.limits = ResourceLimits(maximumBlobsPerFrame: 2000, maximumLiveTracks: 40)
        let mostObservations = try Self.run(request, on: Specks(count: 1000))
        #expect(mostObservations <= 40)
        #expect(request.limitCounts.framesOverBlobLimit == 0)
        #expect(request.limitCounts.tracksNotStarted > 500)
        #expect(request.limitWarnings.count == 1)
        #expect(request.limitWarnings.first?.contains("because 40 tracks were already alive") == true)
    }

    @Test("a few specks stay far below the limits: no warning")
    func ordinaryScene() throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        try Self.run(request, on: Specks(count: 20))
        #expect(request.limitCounts.framesOverBlobLimit == 0 && request.limitCounts.tracksNotStarted == 0)
        #expect(request.limitCounts.mostBlobsInAFrame >= 10)
        #expect(request.limitWarnings.isEmpty)
    }

    @Test("a limit below 1 is refused, naming it", arguments: [
        (ResourceLimits(maximumBlobsPerFrame: 0), "maximumBlobsPerFrame"),
        (ResourceLimits(maximumLiveTracks: -3), "maximumLiveTracks"),
    ])
    func invalidLimits(limits: ResourceLimits, name: String) throws {
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        request.limits = limits
        let error = #expect(throws: ConfigurationError.self) {
            try SequenceRequestHandler().perform([request], on: LumaImage(width: 16, height: 16), frame: FrameStamp(index: 0, time: 0))
        }
        #expect(error?.parameter == name)
    }
}
