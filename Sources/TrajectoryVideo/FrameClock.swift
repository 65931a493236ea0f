import TrajectoryKit

/// Turns decoded frames' timestamps into `FrameStamp`s: seconds since the stream's start
/// time, so an ordinary file starts at 0. A frame without a timestamp is placed one frame
/// duration after the last stamped frame (or at index ÷ frame rate when none was).
///
/// Times never go back, nor below 0: a timestamp that would put a frame before the one
/// before it (a damaged packet header, a stream spliced from two) starts the clock again
/// from there, one frame duration after that frame, and says so. A trajectory's
/// fit needs its frames in time order, and the JSON contract promises times of 0 or more.
/// Gaps forward are kept: they are a variable frame rate's, or dropped frames'.
struct FrameClock {
    private let secondsPerTick: Double
    private let secondsPerFrame: Double
    private var origin: Int64?
    private var last: FrameStamp?

    /// Used for frames without timestamps when the stream does not state its frame rate either.
    static let fallbackFrameRate = 30.0

    /// - Parameters:
    ///   - secondsPerTick: the stream's time base.
    ///   - startTime: the stream's start time in ticks, or nil to start at the first frame.
    ///   - frameRate: frames per second, 0 when unknown.
    init(secondsPerTick: Double, startTime: Int64?, frameRate: Double) {
        self.secondsPerTick = secondsPerTick
        self.origin = startTime
        self.secondsPerFrame = 1 / (frameRate > 0 ? frameRate : Self.fallbackFrameRate)
    }

    /// Times in seconds this close are the same instant: a time read back from ticks, or
    /// carried through a JSON document, differs from the tick's own by far less.
    static let sameInstant = 1e-6

    /// The timestamp, in ticks, of the time `seconds` after the stream's start: the last tick
    /// at or before it, where a tick within ``sameInstant`` after it counts as at it (a frame's
    /// own time, divided back into ticks, can land just under its tick). Nil while the start is
    /// not known (no start time in the stream, and no stamped frame yet), or when `seconds` is
    /// not a time a stream can reach.
    func ticks(atSeconds seconds: Double) -> Int64? {
        guard let origin, seconds.isFinite, seconds >= 0 else { return nil }
        guard let ticks = Int64(ticks: ((seconds + Self.sameInstant) / secondsPerTick).rounded(.down)),
              abs(origin) < Int64.max / 2
        else { return nil }
        return origin + ticks
    }

    /// Whether the last stamped frame, shown for one frame duration, lasts until `seconds`
    /// after the stream's start (within half a frame); false before any frame.
    func lastFrameReaches(_ seconds: Double) -> Bool {
        guard let last else { return false }
        return last.time + secondsPerFrame * 1.5 >= seconds
    }

    /// Forgets the last frame, so that the next may be earlier: after a seek.
    mutating func forgetLastFrame() { last = nil }

    /// The stamp of the frame with 0-based presentation index `index` and best-effort
    /// timestamp `timestamp` in ticks (nil when it has none), and whether that timestamp went
    /// back, so that the clock started again from the frame before.
    mutating func stamp(index: Int, timestamp: Int64?) -> (stamp: FrameStamp, wentBack: Bool) {
        let time: Double
        var wentBack = false
        if let timestamp {
            // In Double: a damaged stream's timestamps may be far enough apart to overflow Int64.
            var origin = self.origin ?? timestamp
            if (Double(timestamp) - Double(origin)) * secondsPerTick < (last?.time ?? 0) - Self.sameInstant {
                let earliest = last.map { $0.time + Double(index - $0.index) * secondsPerFrame } ?? 0
                origin = Int64(ticks: Double(timestamp) - (earliest / secondsPerTick).rounded()) ?? timestamp
                wentBack = true
            }
            self.origin = origin
            time = (Double(timestamp) - Double(origin)) * secondsPerTick
        } else if let last {
            time = last.time + Double(index - last.index) * secondsPerFrame
        } else {
            time = Double(index) * secondsPerFrame
        }
        let stamp = FrameStamp(index: index, time: time)
        last = stamp
        return (stamp, wentBack)
    }
}

extension Int64 {
    /// A whole number of ticks computed in `Double`, or nil when it is not finite or lies outside
    /// half of `Int64`'s range, so that adding or subtracting two such timestamps cannot trap.
    /// A damaged stream's timestamps can lie anywhere in the range.
    init?(ticks: Double) {
        guard ticks.isFinite, abs(ticks) < Double(Int64.max / 2) else { return nil }
        self.init(ticks)
    }
}
