/// One stretch of free flight: x linear in time, y under constant gravity.
///
/// Positions are pixels of the scene (top-left origin, y down), so gravity is positive.
/// The arc is valid on `startTime...endTime`; what ends it is recorded in `ending`.
public struct BallisticArc: Sendable, Hashable {
    /// What ends an arc.
    public enum Ending: String, Sendable, Hashable, Codable {
        /// The ball hit the floor and bounced: the next arc starts there.
        case bounce
        /// The ball hit the floor and stayed (no further hop worth the name).
        case landing
        /// The ball left the frame for good.
        case leftFrame
        /// The clip ended first.
        case clipEnded
        /// A hand caught the ball on its way down.
        case caught
    }

    public var startTime: Double
    public var endTime: Double
    /// Centre of the ball at `startTime`.
    public var start: SIMD2<Double>
    /// Velocity at `startTime`, pixels per second.
    public var velocity: SIMD2<Double>
    /// Downward acceleration, pixels per second squared.
    public var gravity: Double
    public var ending: Ending

    public init(
        startTime: Double, endTime: Double, start: SIMD2<Double>, velocity: SIMD2<Double>,
        gravity: Double, ending: Ending
    ) {
        precondition(endTime >= startTime, "an arc cannot end before it starts")
        self.startTime = startTime
        self.endTime = endTime
        self.start = start
        self.velocity = velocity
        self.gravity = gravity
        self.ending = ending
    }

    /// Centre of the ball at `time` (the arc's equation, also outside its interval).
    @inline(__always)
    public func position(at time: Double) -> SIMD2<Double> {
        let dt = time - startTime
        return SIMD2(start.x + velocity.x * dt, start.y + velocity.y * dt + 0.5 * gravity * dt * dt)
    }

    /// Velocity at `time`.
    public func velocity(at time: Double) -> SIMD2<Double> {
        SIMD2(velocity.x, velocity.y + gravity * (time - startTime))
    }

    public var endPosition: SIMD2<Double> { position(at: endTime) }

    /// The first time after `startTime` at which the centre reaches height `y` going down,
    /// or nil if it never does.
    func descendingTime(toHeight y: Double) -> Double? {
        // start.y + v·dt + g/2·dt² = y  →  dt = (−v + √(v² + 2g(y − start.y))) / g
        let discriminant = velocity.y * velocity.y + 2 * gravity * (y - start.y)
        guard gravity > 0, discriminant >= 0 else { return nil }
        let dt = (-velocity.y + discriminant.squareRoot()) / gravity
        return dt >= 0 ? startTime + dt : nil
    }
}
