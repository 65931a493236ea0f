import Foundation
import TrajectoryEvaluation
import TrajectoryKit

/// Clips built by hand: a 640×360 frame at 30 fps, flights on known parabolas, and reports whose
/// points are placed exactly where a test wants them.
enum Fixture {
    static let width = 640
    static let height = 360
    static let frameRate = 30.0

    /// A flight of one point per frame over `frames`: x moves 12 px a frame, y rises at 15 px a
    /// frame and falls back under 1 px/frame² of gravity (pixels, y down).
    static func flight(
        id: Int = 1, frames: Range<Int> = 10..<40, radius: Double = 5, origin: PixelPoint = PixelPoint(x: 100, y: 300),
        hidden: Set<Int> = []
    ) -> GroundTruth.Flight {
        let points = frames.map { frame in
            let t = Double(frame - frames.lowerBound)
            return GroundTruth.Point(
                frame: frame, time: Double(frame) / frameRate, x: origin.x + 12 * t, y: origin.y - 15 * t + 0.5 * t * t,
                visible: !hidden.contains(frame))
        }
        return GroundTruth.Flight(id: id, radius: radius, points: points)
    }

    static func truth(
        _ flights: [GroundTruth.Flight], scene: String = "hand-made", seed: UInt64 = 1,
        distractors: [GroundTruth.Distractor] = []
    ) -> GroundTruth {
        GroundTruth(
            scene: scene, seed: seed, width: width, height: height, frameRate: frameRate, frameCount: 60,
            flights: flights, distractors: distractors)
    }

    /// Where a flight's ball is in `frame`, moved by `offset` pixels.
    static func ball(of flight: GroundTruth.Flight, at frame: Int, offset: (x: Double, y: Double) = (0, 0)) -> PixelPoint {
        let point = flight.points.first { $0.frame == frame }!
        return PixelPoint(x: point.x + offset.x, y: point.y + offset.y)
    }

    /// A track that follows `flight` over `frames`, off by `offset` pixels.
    static func track(
        following flight: GroundTruth.Flight, frames: some Sequence<Int>, offset: (x: Double, y: Double) = (0, 0)
    ) -> Track {
        Track(points: frames.map { ($0, ball(of: flight, at: $0, offset: offset)) })
    }

    /// A track standing still at `position` over `frames`.
    static func track(at position: PixelPoint, frames: some Sequence<Int>) -> Track {
        Track(points: frames.map { ($0, position) })
    }

    /// A detector report holding `tracks`, written in `coordinates`.
    static func report(
        _ tracks: [Track], coordinates: CoordinateSpace = .normalized, trajectoryLength: Int = 10,
        frameAnalysisSpacing: Double = 0, width: Int = width, height: Int = height
    ) -> TrajectoryReport {
        TrajectoryReport(
            source: .init(uri: "hand-made.mp4", width: width, height: height, frameRate: frameRate, frameCount: 60,
                          duration: 2, rotation: 0),
            request: .init(
                trajectoryLength: trajectoryLength, frameAnalysisSpacing: frameAnalysisSpacing,
                objectMinimumNormalizedRadius: 0, objectMaximumNormalizedRadius: 1, regionOfInterest: .full,
                coordinates: coordinates),
            trajectories: tracks.map { $0.trajectory(in: coordinates, width: width, height: height) })
    }
}

/// A reported trajectory as a test thinks of it: pixel positions by frame.
struct Track {
    var uuid = UUID()
    var points: [(frame: Int, position: PixelPoint)]

    func trajectory(in coordinates: CoordinateSpace, width: Int, height: Int) -> TrajectoryReport.Trajectory {
        let written = points.map { frame, position in
            let xy = coordinates == .pixels
                ? (x: position.x, y: position.y)
                : { let n = position.normalized(width: width, height: height); return (x: n.x, y: n.y) }()
            return TrajectoryReport.Point(
                frame: frame, time: Double(frame) / Fixture.frameRate, x: xy.x, y: xy.y, radius: coordinates == .pixels ? 5 : 5 / Double(width))
        }
        let detected = written.suffix(10).map { TrajectoryReport.XY(x: $0.x, y: $0.y) }
        let start = written.first?.time ?? 0
        return TrajectoryReport.Trajectory(
            uuid: uuid, timeRange: TimeRange(start: start, duration: (written.last?.time ?? 0) - start), points: written,
            detectedPoints: detected, projectedPoints: Array(detected.suffix(5)),
            equationCoefficients: EquationCoefficients(a: 0, b: 0, c: 0), confidence: 1, movingAverageRadius: 5 / Double(width))
    }
}
