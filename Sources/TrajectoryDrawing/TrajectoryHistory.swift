import struct Foundation.UUID
import TrajectoryKit

/// Every trajectory of a run as it developed: all its points, and each fit the request
/// reported, with the frame it was reported on. Enough to draw any frame as it looked live
/// (``OverlayPainter``), including the frames before a trajectory was first reported: Vision
/// reports a flight only once it has `trajectoryLength` points, but its first points are
/// drawn on their own frames.
///
/// - Complexity: memory grows with the trajectories' points and reports, not with the frames.
public struct TrajectoryHistory: Sendable {
    /// One reported fit.
    public struct Fit: Sendable, Hashable {
        /// The analysed frame it was reported on.
        public var frame: Int
        /// y = a·x² + b·x + c, normalized coordinates.
        public var coefficients: EquationCoefficients
        /// The frame of the first of the points it was fitted to (its `detectedPoints`).
        public var firstFittedFrame: Int
    }

    /// One trajectory.
    public struct Track: Sendable, Hashable {
        public var uuid: UUID
        /// The first eight hex digits of the uuid, lower case: the tag drawn beside the ball.
        public var tag: String
        /// Every point of its life, oldest first.
        public var points: [TrajectoryPoint]
        /// Its reported fits, oldest first (never empty).
        public var fits: [Fit]

        /// The fit shown on frame `frame`: the latest reported by then, or the first one for
        /// the frames before the trajectory was reported.
        public func fit(at frame: Int) -> Fit {
            fits.last { $0.frame <= frame } ?? fits[0]
        }

        /// How many points had been seen by frame `frame`.
        public func pointCount(at frame: Int) -> Int {
            points.firstIndex { $0.frame > frame } ?? points.count
        }
    }

    /// The trajectories in the order they were first reported.
    public private(set) var tracks: [Track] = []
    private var trackIndex: [UUID: Int] = [:]

    public init() {}

    /// Records the observations the request made on analysed frame `frame`.
    public mutating func record(_ observations: [TrajectoryObservation], frame: FrameStamp) {
        for observation in observations {
            let firstFitted = observation.points.dropLast(observation.detectedPoints.count).count
            let fit = Fit(
                frame: frame.index, coefficients: observation.equationCoefficients,
                firstFittedFrame: observation.points[min(firstFitted, observation.points.count - 1)].frame)
            if let index = trackIndex[observation.uuid] {
                tracks[index].points = observation.points
                tracks[index].fits.append(fit)
            } else {
                trackIndex[observation.uuid] = tracks.count
                tracks.append(Track(
                    uuid: observation.uuid, tag: String(observation.uuid.uuidString.prefix(8)).lowercased(),
                    points: observation.points, fits: [fit]))
            }
        }
    }

    /// The trajectory with the most points (the earliest of equals), if any.
    public var longestTrack: Track? {
        tracks.max { $0.points.count < $1.points.count }
    }
}
