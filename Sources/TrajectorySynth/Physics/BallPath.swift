/// The whole life of one ball: where it rests before it is launched, then a chain of
/// ballistic arcs joined at bounces.
public struct BallPath: Sendable, Hashable {
    /// The arcs in time order; each starts where and when the previous one ended.
    public private(set) var arcs: [BallisticArc]
    /// Whether the ball lies at the launch point before the first arc (a kick from the
    /// ground) instead of being absent (thrown in from outside the frame).
    public var restsBeforeLaunch: Bool
    /// Whether the ball lies where the last arc ended after a `.landing`.
    public var restsAfterLanding: Bool { arcs.last?.ending == .landing }
    /// Height of the floor in scene pixels (the ball's lowest point touches it at a bounce).
    public var floorY: Double

    /// Flies a ball from `start` with `velocity` at `launchTime`, bouncing on the floor.
    ///
    /// - Parameters:
    ///   - radius: the ball's radius; its centre bounces at `floorY − radius`.
    ///   - restitution: fraction of the vertical speed kept at a bounce.
    ///   - friction: fraction of the horizontal speed kept at a bounce.
    ///   - minimumHop: a bounce whose next arc would last less than this (seconds) is a
    ///     landing instead, so that no flight is too short to be reported.
    ///   - frame: the frame's size; the path ends once the ball has left it sideways or
    ///     below for good (it may leave through the top and come back).
    ///   - endTime: the path ends at this time at the latest (the clip's end).
    ///   - catchHeight: if given, a hand catches the ball when its centre comes down to this
    ///     height (before the floor): the path ends there.
    public init(
        launchTime: Double, start: SIMD2<Double>, velocity: SIMD2<Double>, gravity: Double,
        radius: Double, floorY: Double, restitution: Double, friction: Double = 0.85,
        minimumHop: Double, frame: SIMD2<Double>, endTime: Double, restsBeforeLaunch: Bool,
        catchHeight: Double? = nil
    ) {
        self.restsBeforeLaunch = restsBeforeLaunch
        self.floorY = floorY
        arcs = []
        let contactY = floorY - radius
        // Beyond this the ball cannot show, even with the camera shaken to its limit.
        let margin = radius + Double(Canvas.maximumCameraOffset) + 2
        var time = launchTime
        var position = start
        var currentVelocity = velocity
        while time < endTime {
            let open = BallisticArc(
                startTime: time, endTime: time, start: position, velocity: currentVelocity,
                gravity: gravity, ending: .clipEnded)
            let floorTime = open.descendingTime(toHeight: contactY) ?? .infinity
            let catchTime = catchHeight.flatMap { open.descendingTime(toHeight: $0) } ?? .infinity
            let exitTime = Self.exitTime(of: open, frame: frame, margin: margin)
            let end = min(floorTime, catchTime, exitTime, endTime)
            let ending: BallisticArc.Ending
            if end == endTime {
                ending = .clipEnded
            } else if end == catchTime {
                ending = .caught
            } else if end == exitTime {
                ending = .leftFrame
            } else {
                // Downward speed at the floor (y grows downwards), kept in part by the bounce.
                let reboundSpeed = open.velocity(at: floorTime).y * restitution
                // The next hop lasts 2·v/g; too short a hop is no flight: the ball stays.
                ending = 2 * reboundSpeed / gravity >= minimumHop ? .bounce : .landing
            }
            var arc = open
            arc.endTime = end
            arc.ending = ending
            arcs.append(arc)
            guard ending == .bounce else { break }
            let impact = arc.velocity(at: end)
            position = SIMD2(arc.endPosition.x, contactY)
            currentVelocity = SIMD2(impact.x * friction, -impact.y * restitution)
            time = end
        }
    }

    /// When the ball has left the frame through a side or the bottom, beyond `margin`
    /// (it cannot come back from there); infinity if it does not before its floor.
    private static func exitTime(of arc: BallisticArc, frame: SIMD2<Double>, margin: Double) -> Double {
        var exit = Double.infinity
        if arc.velocity.x > 0 {
            exit = arc.startTime + (frame.x + margin - arc.start.x) / arc.velocity.x
        } else if arc.velocity.x < 0 {
            exit = arc.startTime + (-margin - arc.start.x) / arc.velocity.x
        }
        if let below = arc.descendingTime(toHeight: frame.y + margin) {
            exit = min(exit, below)
        }
        return max(exit, arc.startTime)
    }

    public var launchTime: Double { arcs.first?.startTime ?? 0 }
    public var endTime: Double { arcs.last?.endTime ?? 0 }

    /// The ball's centre at `time`, or nil when it is not in the scene.
    public func position(at time: Double) -> SIMD2<Double>? {
        guard let first = arcs.first, let last = arcs.last else { return nil }
        if time < first.startTime {
            return restsBeforeLaunch ? first.start : nil
        }
        if time > last.endTime {
            return restsAfterLanding ? last.endPosition : nil
        }
        return arc(at: time)?.position(at: time)
    }

    /// The arc in flight at `time` (a bounce instant belongs to the arc that starts there).
    public func arc(at time: Double) -> BallisticArc? {
        arcIndex(at: time).map { arcs[$0] }
    }

    /// Index in `arcs` of the arc in flight at `time`, nil before launch and after the end.
    public func arcIndex(at time: Double) -> Int? {
        guard let last = arcs.last, time <= last.endTime, let first = arcs.first, time >= first.startTime
        else { return nil }
        return arcs.lastIndex { $0.startTime <= time }
    }
}
