/// What one clip's report scored against its per-frame labels.
public struct PointClipScore: Sendable, Hashable, Codable {
    public var clip: String
    public var counts: PointCounts
    public var metrics: PointMetrics
    /// Every labelled frame that was not simply right, in frame order.
    public var mistakes: [FrameMistake]

    public init(clip: String, counts: PointCounts, mistakes: [FrameMistake]) {
        self.clip = clip
        self.counts = counts
        self.metrics = counts.metrics
        self.mistakes = mistakes
    }
}

/// A labelled frame where the report was wrong.
public struct FrameMistake: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The ball is visible and nothing was reported.
        case missed
        /// The ball is visible and the closest prediction is beyond tolerance.
        case mislocated
        /// The ball was found, and other predictions were made in the same frame.
        case duplicated
        /// The ball is not visible but something was reported.
        case spurious
    }

    public var frame: Int
    public var kind: Kind
    /// Predictions in the frame.
    public var predictions: Int
    /// Pixels from the ball to the closest prediction; `nil` when the ball is not visible or
    /// nothing was predicted.
    @NullWhenAbsent public var distance: Double?

    public init(frame: Int, kind: Kind, predictions: Int, distance: Double?) {
        self.frame = frame
        self.kind = kind
        self.predictions = predictions
        self.distance = distance
    }
}

/// Per-frame counts of one or more clips.
///
/// Always `truePositives + falseNegatives == visibleLabels` and
/// `truePositives + falsePositives == predictions`.
public struct PointCounts: ScoreCounts {
    /// Frames with a label, and those where the ball is visible.
    public var labelledFrames: Int
    public var visibleLabels: Int
    /// Trajectory points in labelled frames.
    public var predictions: Int
    public var truePositives: Int
    public var falsePositives: Int
    /// Visible balls without a prediction within tolerance (`mislocated` included).
    public var falseNegatives: Int
    /// Frames without a visible ball and without a prediction.
    public var trueNegatives: Int
    /// Visible balls whose closest prediction was beyond tolerance.
    public var mislocated: Int
    /// Trajectory points in frames that have no label: not scored, counted so a reader sees
    /// how much of the report the labels cover.
    public var unlabelledPredictions: Int
    /// Sum and largest of the true positives' distances from the ball, in pixels.
    public var errorSum: Double
    public var maxError: Double

    public static let zero = PointCounts()

    public init(
        labelledFrames: Int = 0, visibleLabels: Int = 0, predictions: Int = 0, truePositives: Int = 0,
        falsePositives: Int = 0, falseNegatives: Int = 0, trueNegatives: Int = 0, mislocated: Int = 0,
        unlabelledPredictions: Int = 0, errorSum: Double = 0, maxError: Double = 0
    ) {
        self.labelledFrames = labelledFrames
        self.visibleLabels = visibleLabels
        self.predictions = predictions
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
        self.trueNegatives = trueNegatives
        self.mislocated = mislocated
        self.unlabelledPredictions = unlabelledPredictions
        self.errorSum = errorSum
        self.maxError = maxError
    }

    public static func + (lhs: PointCounts, rhs: PointCounts) -> PointCounts {
        PointCounts(
            labelledFrames: lhs.labelledFrames + rhs.labelledFrames,
            visibleLabels: lhs.visibleLabels + rhs.visibleLabels,
            predictions: lhs.predictions + rhs.predictions,
            truePositives: lhs.truePositives + rhs.truePositives,
            falsePositives: lhs.falsePositives + rhs.falsePositives,
            falseNegatives: lhs.falseNegatives + rhs.falseNegatives,
            trueNegatives: lhs.trueNegatives + rhs.trueNegatives,
            mislocated: lhs.mislocated + rhs.mislocated,
            unlabelledPredictions: lhs.unlabelledPredictions + rhs.unlabelledPredictions,
            errorSum: lhs.errorSum + rhs.errorSum,
            maxError: max(lhs.maxError, rhs.maxError))
    }

    public var metrics: PointMetrics { PointMetrics(counts: self) }
}

/// The rates a `PointCounts` gives. With no prediction precision is 1, with no visible ball
/// recall is 1: nothing reported was wrong, nothing there was missed.
public struct PointMetrics: Sendable, Hashable, Codable {
    /// True positives ÷ predictions.
    public var precision: Double
    /// True positives ÷ visible balls.
    public var recall: Double
    public var f1: Double
    /// Mean and largest distance of the true positives from the ball, in pixels; `nil` without any.
    @NullWhenAbsent public var meanError: Double?
    @NullWhenAbsent public var maxError: Double?

    public init(counts: PointCounts) {
        precision = Rate.fraction(counts.truePositives, of: counts.truePositives + counts.falsePositives)
        recall = Rate.fraction(counts.truePositives, of: counts.truePositives + counts.falseNegatives)
        f1 = Rate.f1(precision: precision, recall: recall)
        meanError = Rate.mean(counts.errorSum, count: counts.truePositives)
        maxError = counts.truePositives == 0 ? nil : counts.maxError
    }
}
