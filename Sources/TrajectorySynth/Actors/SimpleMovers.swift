import TrajectoryEvaluation

/// A small light that switches on and off (a warning lamp, an indicator): sudden change in
/// one ball-sized spot, without any motion.
public struct BlinkingLight: SceneActor {
    public var center: SIMD2<Double>
    public var radius: Double
    public var onLevel: Float
    public var offLevel: Float
    /// Seconds per on–off cycle, the fraction of it spent on, and the cycle's offset.
    public var period: Double
    public var dutyCycle: Double
    public var phase: Double

    public init(center: SIMD2<Double>, radius: Double, onLevel: Float, offLevel: Float, period: Double, dutyCycle: Double, phase: Double) {
        precondition(radius > 0 && period > 0 && dutyCycle > 0 && dutyCycle < 1)
        self.center = center
        self.radius = radius
        self.onLevel = onLevel
        self.offLevel = offLevel
        self.period = period
        self.dutyCycle = dutyCycle
        self.phase = phase
    }

    /// 0 (off) … 1 (on) at `time`, with a short ramp as the filament warms and cools.
    public func brightness(at time: Double) -> Double {
        let cycle = (time + phase) / period
        let position = (cycle - cycle.rounded(.down)) * period
        let ramp = min(0.04, dutyCycle * period / 4)
        let onTime = dutyCycle * period
        if position < ramp { return position / ramp }
        if position < onTime { return 1 }
        return max(0, 1 - (position - onTime) / ramp)
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        let housing = radius * 1.9
        canvas.fillRect(
            minX: center.x - housing, minY: center.y - housing, maxX: center.x + housing,
            maxY: center.y + housing, level: 30)
        let level = offLevel + (onLevel - offLevel) * Float(brightness(at: moment.time))
        canvas.fillDisc(center: center, radius: radius, level: level)
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        .onScreenThroughout("blinker", frameCount: frameCount)
    }
}

/// A ball-like marker going round a circle (a mark on a wheel, a ball on a string):
/// smooth, curved, accelerated motion that is not free fall.
public struct CircularMover: SceneActor {
    public var center: SIMD2<Double>
    public var orbitRadius: Double
    /// Radians per second (positive is clockwise on screen).
    public var angularSpeed: Double
    public var phase: Double
    public var marker: BallAppearance
    /// Grey level of the disc the marker is painted on (a wheel), nil for none.
    public var wheelLevel: Float?

    public init(center: SIMD2<Double>, orbitRadius: Double, angularSpeed: Double, phase: Double, marker: BallAppearance, wheelLevel: Float?) {
        self.center = center
        self.orbitRadius = orbitRadius
        self.angularSpeed = angularSpeed
        self.phase = phase
        self.marker = marker
        self.wheelLevel = wheelLevel
    }

    public func markerCenter(at time: Double) -> SIMD2<Double> {
        let angle = angularSpeed * time + phase
        return center + orbitRadius * SIMD2(PortableMath.cos(angle), PortableMath.sin(angle))
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        if let wheelLevel {
            canvas.fillDisc(center: center, radius: orbitRadius + marker.radius * 2, level: wheelLevel)
            canvas.fillDisc(center: center, radius: marker.radius, level: wheelLevel * 0.5)
        }
        drawMovingBall(marker, on: &canvas, at: moment) { markerCenter(at: $0) }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        .onScreenThroughout("circular", frameCount: frameCount)
    }
}

/// A large object crossing slowly (a van, a cart): a big region of change that moves a
/// little each frame.
public struct SlowVehicle: SceneActor {
    /// Scene x of the rear at time 0, and its speed in pixels per second.
    public var startX: Double
    public var speed: Double
    public var groundY: Double
    public var length: Double
    public var height: Double
    public var bodyLevel: Float
    public var frameWidth: Double

    public init(startX: Double, speed: Double, groundY: Double, length: Double, height: Double, bodyLevel: Float, frameWidth: Double) {
        self.startX = startX
        self.speed = speed
        self.groundY = groundY
        self.length = length
        self.height = height
        self.bodyLevel = bodyLevel
        self.frameWidth = frameWidth
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        let left = startX + speed * moment.time
        let wheelRadius = height * 0.17
        let bodyBottom = groundY - wheelRadius * 0.9
        let top = groundY - height
        canvas.fillRect(minX: left, minY: top + height * 0.08, maxX: left + length, maxY: bodyBottom, level: bodyLevel)
        canvas.fillRect(
            minX: left + length * 0.04, minY: top, maxX: left + length * 0.96, maxY: top + height * 0.1,
            level: bodyLevel * 0.92)
        // Side windows and a stripe.
        let windowTop = top + height * 0.16
        let windowBottom = top + height * 0.42
        for index in 0..<4 {
            let x = left + length * (0.08 + 0.22 * Double(index))
            canvas.fillRect(minX: x, minY: windowTop, maxX: x + length * 0.17, maxY: windowBottom, level: 28)
        }
        canvas.fillRect(
            minX: left, minY: top + height * 0.55, maxX: left + length, maxY: top + height * 0.6,
            level: bodyLevel * 0.6)
        for axle in [0.2, 0.8] {
            let hub = SIMD2(left + length * axle, groundY - wheelRadius)
            canvas.fillDisc(center: hub, radius: wheelRadius, level: 22)
            canvas.fillDisc(center: hub, radius: wheelRadius * 0.45, level: 140)
        }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        distractorRecord(kind: "large-slow-object", frameCount: frameCount, frameRate: frameRate) { time in
            let left = startX + speed * time
            return left + length > 0 && left < frameWidth
        }
    }
}
