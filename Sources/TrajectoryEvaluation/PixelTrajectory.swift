import struct Foundation.UUID
import TrajectoryKit

/// A point of a reported trajectory in pixels of the full frame, top-left origin.
struct FramePoint: Sendable, Hashable {
    var frame: Int
    var position: PixelPoint
}

/// A reported trajectory with its points in pixels, whatever coordinates the report was written in,
/// so that it can be compared with ground truth and labels (which are in pixels).
struct PixelTrajectory: Sendable, Hashable {
    var uuid: UUID
    var points: [FramePoint]

    var firstFrame: Int? { points.map(\.frame).min() }
    var lastFrame: Int? { points.map(\.frame).max() }
}

extension TrajectoryReport {
    /// Every trajectory with its points converted to pixels according to `request.coordinates`.
    /// - Throws: `EvaluationError.invalidDocument` when the frame size is not positive, since
    ///   normalized points cannot be placed in such a frame.
    func pixelTrajectories(name: String) throws(EvaluationError) -> [PixelTrajectory] {
        guard source.width > 0, source.height > 0 else {
            throw .invalidDocument(name: name, problem: "source.width and source.height must be positive, "
                + "found \(source.width)x\(source.height)")
        }
        return trajectories.map { trajectory in
            PixelTrajectory(uuid: trajectory.uuid, points: trajectory.points.map { point in
                FramePoint(frame: point.frame, position: pixelPosition(x: point.x, y: point.y))
            })
        }
    }

    private func pixelPosition(x: Double, y: Double) -> PixelPoint {
        switch request.coordinates {
        case .pixels:
            PixelPoint(x: x, y: y)
        case .normalized:
            NormalizedPoint(x: x, y: y).pixels(width: source.width, height: source.height)
        }
    }
}

extension PixelPoint {
    /// Euclidean distance in pixels.
    func distance(to other: PixelPoint) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}
