import Synchronization

/// Which of two lanes decodes each segment of a stream (``SegmentBoundaries``): the first lane
/// every segment until the alternation starts, then the second lane the segment it starts at,
/// the first the next, and so on.
///
/// Lanes that pay from the start (1080p, slow motion) alternate from segment 1, so the first
/// lane takes the even segments and the second the odd ones. Otherwise the first lane decodes
/// alone, as one decoder would, and starts the alternation at a cut once the analysis has shown
/// that it waits for decoding (``SecondLaneTrigger``). Every lane's reader and the analysing
/// side's ``LaneMerger`` ask the same instance, so they agree on every segment's lane.
final class SegmentShares: Sendable {
    private let alternationStart: Mutex<Int?>
    /// Whether the alternation was set when the shares were made, not started at a cut.
    let alternatesFromTheStart: Bool

    /// Shares that alternate from `segment` (1 or later) on, or, when nil, once
    /// ``alternate(from:)`` says so.
    init(alternatingFrom segment: Int?) {
        precondition(segment.map { $0 >= 1 } ?? true, "the first lane begins the first segment")
        alternationStart = Mutex(segment)
        alternatesFromTheStart = segment != nil
    }

    /// The segment the alternation started at, if it has.
    var firstAlternatingSegment: Int? { alternationStart.withLock { $0 } }

    /// The lane, 0 or 1, that decodes `segment`.
    func lane(of segment: Int) -> Int {
        guard let start = firstAlternatingSegment, segment >= start else { return 0 }
        return (segment - start) % 2 == 0 ? 1 : 0
    }

    /// Starts the alternation at `segment`, which no lane may have decoded a frame of, unless it
    /// has started already. Returns whether this call started it.
    func alternate(from segment: Int) -> Bool {
        alternationStart.withLock { start in
            guard start == nil, segment >= 1 else { return false }
            start = segment
            return true
        }
    }
}
