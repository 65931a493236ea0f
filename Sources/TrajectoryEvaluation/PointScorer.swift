import TrajectoryKit

/// Scores a report frame by frame against TrackNet-style labels: did the detector put a point
/// on the ball in each labelled frame, and nowhere else?
///
/// In each labelled frame every trajectory point is a prediction. When the ball is visible, the
/// prediction closest to it is a true positive if it lies within `tolerance` pixels; otherwise
/// the ball is missed (a false negative) *and* that prediction is a false positive. Every other
/// prediction in the frame, and any prediction in a frame where the ball is not visible, is a
/// false positive. Frames without a label are not scored.
///
/// This is stricter than TrackNet's own evaluation, which counts a prediction that is too far
/// from a visible ball only as a false positive and not also as a missed ball. `mislocated` counts
/// those frames, so TrackNet's recall is `TP / (TP + FN − mislocated)`. TrackNet's 4 px tolerance
/// is at its 512×288 input; the same tolerance in a 1280×720 video is 10 px.
public struct PointScorer: Sendable {
    /// How far, in pixels, a prediction may be from the labelled centre. Default 4 px: a ball's
    /// centre to within a few pixels, as TrackNet's evaluations ask.
    public let tolerance: Double

    /// - Throws: `EvaluationError.invalidOption` unless `tolerance` is a positive number.
    public init(tolerance: Double = 4) throws(EvaluationError) {
        guard tolerance.isFinite, tolerance > 0 else {
            throw .invalidOption(name: "tolerance", problem: "must be a positive number of pixels, got \(tolerance)")
        }
        self.tolerance = tolerance
    }

    /// Scores one clip.
    /// - Parameter clip: how to name the clip in results and errors; the report's `source.uri` if nil.
    /// - Throws: `EvaluationError.invalidDocument` when the report's frame size is not positive.
    public func score(_ report: TrajectoryReport, against labels: TrackNetLabels, clip: String? = nil) throws(EvaluationError) -> PointClipScore {
        let clipName = clip ?? report.source.uri
        var predictions: [Int: [PixelPoint]] = [:]
        for point in try report.pixelTrajectories(name: clipName).flatMap(\.points) {
            predictions[point.frame, default: []].append(point.position)
        }
        var tally = PointTally()
        for label in labels.labels {
            tally.add(label, predictions: predictions.removeValue(forKey: label.frame) ?? [], tolerance: tolerance)
        }
        tally.counts.unlabelledPredictions = predictions.values.map(\.count).reduce(0, +)
        return PointClipScore(clip: clipName, counts: tally.counts, mistakes: tally.mistakes)
    }
}

/// Counts and mistakes, built up one labelled frame at a time.
private struct PointTally {
    var counts = PointCounts.zero
    var mistakes: [FrameMistake] = []

    mutating func add(_ label: FrameLabel, predictions: [PixelPoint], tolerance: Double) {
        counts.labelledFrames += 1
        counts.predictions += predictions.count
        guard let ball = label.position else {
            if predictions.isEmpty {
                counts.trueNegatives += 1
            } else {
                counts.falsePositives += predictions.count
                record(.spurious, label, predictions, distance: nil)
            }
            return
        }
        counts.visibleLabels += 1
        guard let distance = predictions.map({ $0.distance(to: ball) }).min() else {
            counts.falseNegatives += 1
            record(.missed, label, predictions, distance: nil)
            return
        }
        if distance <= tolerance {
            counts.truePositives += 1
            counts.errorSum += distance
            counts.maxError = max(counts.maxError, distance)
            counts.falsePositives += predictions.count - 1
            if predictions.count > 1 { record(.duplicated, label, predictions, distance: distance) }
        } else {
            counts.falseNegatives += 1
            counts.mislocated += 1
            counts.falsePositives += predictions.count
            record(.mislocated, label, predictions, distance: distance)
        }
    }

    private mutating func record(_ kind: FrameMistake.Kind, _ label: FrameLabel, _ predictions: [PixelPoint], distance: Double?) {
        mistakes.append(FrameMistake(frame: label.frame, kind: kind, predictions: predictions.count, distance: distance))
    }
}
