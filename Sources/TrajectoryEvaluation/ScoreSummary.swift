/// Counts that add up across clips, and the rates computed from them.
///
/// Several clips are combined by summing their counts and only then computing rates (a micro
/// average): a clip with forty flights weighs forty times one with a single flight, and a rate
/// is never an average of averages.
public protocol ScoreCounts: Sendable, Hashable, Codable {
    associatedtype Metrics: Sendable, Hashable, Codable
    /// Nothing counted.
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    /// The rates these counts give.
    var metrics: Metrics { get }
}

/// The summed counts of several clips (a scene, or everything) and the rates they give.
public struct ScoreSummary<Counts: ScoreCounts>: Sendable, Hashable, Codable {
    /// What the row stands for: a scene's name, or `total`.
    public var name: String
    /// How many clips were summed.
    public var clips: Int
    public var counts: Counts
    public var metrics: Counts.Metrics

    public init(name: String, clips: Int, counts: Counts) {
        self.name = name
        self.clips = clips
        self.counts = counts
        self.metrics = counts.metrics
    }

    /// Sums `counts` under one name.
    public init(name: String, summing counts: [Counts]) {
        self.init(name: name, clips: counts.count, counts: counts.reduce(.zero, +))
    }
}

/// How rates are computed from counts, with the empty cases defined once.
enum Rate {
    /// `part / whole`; when there is nothing to measure (`whole == 0`) nothing was missed or
    /// wrong, so the rate is 1.
    static func fraction(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 1 : Double(part) / Double(whole)
    }

    /// Harmonic mean of precision and recall; 0 when both are 0.
    static func f1(precision: Double, recall: Double) -> Double {
        precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }

    /// The mean of `count` values that sum to `sum`, or nil when there are none.
    static func mean(_ sum: Double, count: Int) -> Double? {
        count == 0 ? nil : sum / Double(count)
    }
}
