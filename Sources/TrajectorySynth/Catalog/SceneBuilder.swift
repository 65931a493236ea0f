import TrajectoryEvaluation

/// Draws a scene's random choices from its seed: frame geometry, backdrop, balls and
/// actors with plausible sizes and speeds. Catalogue scenes start from `init` and add
/// what they are about.
///
/// Lengths come from a scene scale (`pixelsPerMetre` in the plane the balls fly in), so
/// gravity, people and balls keep real proportions at any resolution.
struct SceneBuilder {
    var random: SeededGenerator
    let name: String
    let seed: UInt64
    var width: Int
    var height: Int
    var frameRate: Double
    var frameCount: Int
    var pixelsPerMetre: Double
    var backdrop: Backdrop
    /// Where the balls' plane meets the ground: their bounce height.
    var floorY: Double
    var camera = CameraShake.steady
    var sensor = Sensor()
    var balls: [ThrownBall] = []
    var actors: [any SceneActor] = []

    var gravity: Double { 9.81 * pixelsPerMetre }
    var duration: Double { Double(frameCount) / frameRate }
    var horizonY: Double { backdrop.horizon * Double(height) }
    var frameSize: SIMD2<Double> { SIMD2(Double(width), Double(height)) }

    /// A scene of `width` × `height` at `frameRate` lasting 2.5–4 s, whose frame shows
    /// about 10 m of height in the balls' plane.
    init(name: String, seed: UInt64, width: Int = 1280, height: Int = 720, frameRate: Double = 30) {
        random = SeededGenerator(seed: Hashing.hash(seed, name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        self.name = name
        self.seed = seed
        self.width = width
        self.height = height
        self.frameRate = frameRate
        frameCount = Int((frameRate * random.uniform(2.5...4)).rounded())
        pixelsPerMetre = Double(height) / random.uniform(9...11)
        let style = random.element(of: Backdrop.Style.allCases)
        // Skies and walls a little darker than a sunlit ball, as a camera exposing for the
        // players renders them.
        let upper: Float = style == .field ? Float(random.uniform(150...180)) : Float(random.uniform(130...165))
        backdrop = Backdrop(
            style: style, seed: random.next(), horizon: random.uniform(0.32...0.45), upperLevel: upper,
            lowerLevel: Float(random.uniform(80...115)), texture: Float(random.uniform(4...7)))
        floorY = Double(height) * random.uniform(0.84...0.93)
    }

    func script() -> SceneScript {
        SceneScript(
            name: name, seed: seed, width: width, height: height, frameRate: frameRate, frameCount: frameCount,
            gravity: gravity, backdrop: backdrop, camera: camera, sensor: sensor, balls: balls, actors: actors)
    }

    // MARK: Balls

    /// A ball of real-world size: a football or volleyball (10–12 cm radius) by default.
    /// Most are white or yellow (bright in luma); one in three is dark, as a green or red
    /// ball is against a bright wall or sky.
    mutating func ballAppearance(radius: ClosedRange<Double>? = nil) -> BallAppearance {
        let r = radius.map { random.uniform($0) } ?? random.uniform(0.10...0.12) * pixelsPerMetre
        // Light from near the camera, a little from above: visible shading, yet the intensity
        // centroid stays within about half a pixel of the true centre.
        let light = SIMD3(random.uniform(-0.1...0.1), random.uniform(-0.12...(-0.03)), 1)
        return BallAppearance(
            radius: r, albedo: Float(random.chance(1.0 / 3) ? random.uniform(45...85) : random.uniform(230...255)),
            ambient: Float(random.uniform(0.55...0.7)),
            light: light, highlight: Float(random.uniform(0...25)))
    }

    /// The ways a ball comes into a scene.
    enum Launch: CaseIterable {
        /// Kicked from the floor: it lies there until then, then flies and bounces.
        case kick
        /// Thrown in from outside the frame through a side edge.
        case entry
        /// Tossed almost straight up from low in the frame.
        case toss
    }

    /// A ball launched at `time` the way `launch` says, with a random direction and speed
    /// that keeps its top inside the frame.
    mutating func ball(
        _ launch: Launch, at time: Double, appearance: BallAppearance, restitution: ClosedRange<Double> = 0.45...0.6
    ) -> ThrownBall {
        let r = appearance.radius
        let g = gravity
        let w = Double(width)
        let direction = random.sign()
        let start: SIMD2<Double>
        let velocity: SIMD2<Double>
        switch launch {
        case .kick, .toss:
            // Time up and down to the floor: the apex stays below the top of the frame.
            let highest = (8 * (floorY - r - 2 * r) / g).squareRoot()
            let flightTime = random.uniform(0.75...min(1.7, highest))
            let x0 = launch == .kick ? w / 2 - direction * random.uniform(0.15...0.42) * w : random.uniform(0.2...0.8) * w
            start = SIMD2(x0, floorY - r)
            let vx = launch == .kick ? direction * random.uniform(0.25...0.7) * w / flightTime : random.uniform(-40...40)
            velocity = SIMD2(vx, -g * flightTime / 2)
        case .entry:
            let y0 = random.uniform(0.3...0.7) * Double(height)
            // Outside the frame even when the camera shakes, so it never pops into view.
            let outside = r + Double(Canvas.maximumCameraOffset) + 1
            start = SIMD2(direction > 0 ? -outside : w + outside, y0)
            let apexRise = random.uniform(0.05...0.9) * (y0 - 2 * r)
            velocity = SIMD2(direction * random.uniform(0.3...0.8) * w, -(2 * g * max(apexRise, 1)).squareRoot())
        }
        let bounce = random.uniform(restitution)
        let flightPath = path(
            at: time, from: start, velocity: velocity, radius: r, rests: launch == .kick, restitution: bounce)
        return ThrownBall(appearance: appearance, path: flightPath)
    }

    // MARK: People

    /// A walker somewhere between the horizon and the camera, scaled by perspective,
    /// crossing at 1–1.7 m/s.
    mutating func walker() -> Walker {
        let groundY = randomGroundY()
        let scale = pixelsPerMetre(atGround: groundY)
        let speed = random.sign() * random.uniform(1.0...1.7) * scale
        let w = Double(width)
        let startX = speed > 0 ? random.uniform(-0.3...0.5) * w : random.uniform(0.5...1.3) * w
        return Walker(
            figure: randomFigure(height: 1.75 * scale, facing: speed), startX: startX, groundY: groundY,
            speed: speed, phase: random.uniform(0...6.28), frameWidth: w)
    }
}

extension GroundTruth {
    /// Whether every flight shows the ball in at least `frames` visible frames: what the
    /// catalogue promises so that every flight can be reported.
    func everyFlightVisible(atLeast frames: Int) -> Bool {
        flights.allSatisfy { flight in flight.points.filter(\.visible).count >= frames }
    }

    /// Whether two flights are in the air at the same frame.
    var hasSimultaneousFlights: Bool {
        let spans = flights.map { ($0.points.first!.frame, $0.points.last!.frame) }.sorted { $0.0 < $1.0 }
        return zip(spans, spans.dropFirst()).contains { $0.1 >= $1.0 }
    }
}

extension SceneBuilder {
    /// Pixels per metre at a depth whose ground line is at `groundY` (perspective from the
    /// horizon: half as far below the horizon is twice as far away).
    func pixelsPerMetre(atGround groundY: Double) -> Double {
        pixelsPerMetre * (groundY - horizonY) / (floorY - horizonY)
    }

    /// A ground line somewhere between a quarter of the way down from the horizon and just
    /// below the frame.
    mutating func randomGroundY() -> Double {
        random.uniform((horizonY + 0.25 * (Double(height) - horizonY))...(Double(height) * 1.02))
    }

    mutating func randomFigure(height: Double, facing: Double) -> HumanFigure {
        HumanFigure(
            height: height, skinLevel: Float(random.uniform(110...200)), shirtLevel: Float(random.uniform(20...235)),
            trousersLevel: Float(random.uniform(25...120)), facing: facing)
    }

    /// A person near the balls' plane swinging a ball that looks like `ball` (a new one of
    /// the scene's kind when nil).
    mutating func carrier(ball: BallAppearance? = nil) -> CarriedBall {
        let groundY = floorY + random.uniform(-0.03...0.05) * Double(height)
        let scale = pixelsPerMetre(atGround: groundY)
        let facing = random.sign()
        return CarriedBall(
            figure: randomFigure(height: 1.75 * scale, facing: facing), ball: ball ?? ballAppearance(),
            startX: random.uniform(0.1...0.9) * Double(width), drift: random.uniform(-0.6...0.6) * scale,
            groundY: groundY, swingFrequency: random.uniform(0.5...1.1), swingCentre: random.uniform(0.3...1.0),
            swingAmplitude: random.uniform(0.6...1.3), phase: random.uniform(0...6.283), frameWidth: Double(width))
    }

    mutating func blinkingLight() -> BlinkingLight {
        BlinkingLight(
            center: SIMD2(random.uniform(0.05...0.95) * Double(width), random.uniform(0.1...0.8) * Double(height)),
            radius: random.uniform(0.06...0.12) * pixelsPerMetre, onLevel: Float(random.uniform(220...255)),
            offLevel: Float(random.uniform(50...90)), period: random.uniform(0.3...1.2),
            dutyCycle: random.uniform(0.3...0.7), phase: random.uniform(0...1))
    }

    mutating func circularMover() -> CircularMover {
        let orbit = random.uniform(0.3...0.9) * pixelsPerMetre
        let margin = orbit + 20
        let centre = SIMD2(
            random.uniform(margin...(Double(width) - margin)), random.uniform(margin...(Double(height) - margin)))
        return CircularMover(
            center: centre, orbitRadius: orbit, angularSpeed: random.sign() * random.uniform(2...7),
            phase: random.uniform(0...6.283), marker: ballAppearance(),
            wheelLevel: random.chance(0.5) ? Float(random.uniform(40...90)) : nil)
    }

    mutating func slowVehicle() -> SlowVehicle {
        let groundY = randomGroundY()
        let scale = pixelsPerMetre(atGround: groundY)
        let speed = random.sign() * random.uniform(0.6...2.0) * scale
        let length = random.uniform(4...6) * scale
        let startX = speed > 0 ? random.uniform(-0.8...0.3) * length : Double(width) - random.uniform(0.2...0.9) * length
        return SlowVehicle(
            startX: startX, speed: speed, groundY: groundY, length: length,
            height: random.uniform(1.8...2.4) * scale, bodyLevel: Float(random.uniform(60...220)),
            frameWidth: Double(width))
    }

    mutating func foliage() -> Foliage {
        let size = SIMD2(Int(random.uniform(0.15...0.28) * Double(width)), Int(random.uniform(0.2...0.35) * Double(height)))
        let origin = SIMD2(
            random.uniform(-0.1...0.95) * Double(width) - Double(size.x) / 2,
            horizonY - Double(size.y) * random.uniform(0.5...1.1))
        return Foliage(
            origin: origin, size: size, windStrength: random.uniform(0.8...2.2), trunkBase: horizonY + 0.02 * Double(height),
            seed: random.next())
    }

    mutating func crowd() -> Crowd {
        let top = horizonY - random.uniform(0.12...0.2) * Double(height)
        let region = PixelBox(minX: -10, minY: top, maxX: Double(width) + 10, maxY: horizonY + 2)
        return Crowd(region: region, seed: random.next())
    }

    mutating func banner(top: Double) -> ScrollingBanner {
        let bannerHeight = random.uniform(0.035...0.06) * Double(height)
        let left = random.chance(0.5) ? -10 : random.uniform(0...0.4) * Double(width)
        let right = random.chance(0.5) ? Double(width) + 10 : left + random.uniform(0.3...0.6) * Double(width)
        return ScrollingBanner(
            region: PixelBox(minX: left, minY: top, maxX: right, maxY: top + bannerHeight),
            speed: random.sign() * random.uniform(60...260), seed: random.next())
    }
}

extension SceneBuilder {
    /// A ball tossed so high that it leaves through the top of the frame and falls back in:
    /// one arc, two flights in the truth.
    mutating func highToss(at time: Double, appearance: BallAppearance) -> ThrownBall {
        let r = appearance.radius
        // Flight time whose apex (g·T²/8 above the launch) clears the top edge by 1–1.4×.
        let clearing = (8 * (floorY + 2 * r) / gravity).squareRoot()
        let flightTime = clearing * random.uniform(1.05...1.25)
        let start = SIMD2(random.uniform(0.25...0.75) * Double(width), floorY - r)
        let velocity = SIMD2(random.uniform(-0.12...0.12) * Double(width), -gravity * flightTime / 2)
        return ThrownBall(appearance: appearance, path: path(at: time, from: start, velocity: velocity, radius: r, rests: true))
    }

    /// A hard, flat throw across the frame: long motion-blur streaks.
    mutating func fastThrow(at time: Double, appearance: BallAppearance) -> ThrownBall {
        let r = appearance.radius
        let direction = random.sign()
        let outside = r + Double(Canvas.maximumCameraOffset) + 1
        let start = SIMD2(direction > 0 ? -outside : Double(width) + outside, random.uniform(0.3...0.6) * Double(height))
        let velocity = SIMD2(direction * random.uniform(0.9...1.5) * Double(width), -random.uniform(0...0.5) * Double(height))
        return ThrownBall(appearance: appearance, path: path(at: time, from: start, velocity: velocity, radius: r, rests: false))
    }

    /// A bouncing path from `start` in this scene's gravity, floor and frame.
    func path(
        at time: Double, from start: SIMD2<Double>, velocity: SIMD2<Double>, radius: Double, rests: Bool,
        restitution: Double = 0.5
    ) -> BallPath {
        BallPath(
            launchTime: time, start: start, velocity: velocity, gravity: gravity, radius: radius, floorY: floorY,
            restitution: restitution, minimumHop: 14 / frameRate, frame: frameSize,
            endTime: duration + 1 / frameRate, restsBeforeLaunch: rests)
    }
}

extension SceneBuilder {
    /// A person near the balls' plane who tosses a ball 0.8–2.5 m above the hand at `time`
    /// and catches it on the way down: the actor and the ball in flight it throws.
    mutating func tosser(at time: Double) -> (Tosser, ThrownBall) {
        let groundY = floorY + random.uniform(-0.02...0.04) * Double(height)
        let scale = pixelsPerMetre(atGround: groundY)
        let figure = randomFigure(height: 1.75 * scale, facing: random.sign())
        let look = ballAppearance()
        let x = random.uniform(0.15...0.85) * Double(width)
        let pose = HumanFigure.Pose(
            x: x, groundY: groundY, nearLeg: .init(upper: 0.08, bend: 0.05), farLeg: .init(upper: -0.08, bend: 0.05),
            nearArm: .init(upper: 0, bend: 0), farArm: .init(upper: 0, bend: 0))
        let shoulder = figure.nearShoulder(pose)
        let grip = SIMD2(0, -0.6 * look.radius)
        let start = shoulder + figure.height * SIMD2(0.06 * figure.facing, -0.27) + grip
        let rise = min(random.uniform(0.8...2.5) * scale, start.y - 2 * look.radius - 4)
        let velocity = SIMD2(random.uniform(-0.15...0.15) * scale, -(2 * gravity * max(rise, 1)).squareRoot())
        let catchHeight = shoulder.y - 0.2 * figure.height + grip.y
        let flight = BallPath(
            launchTime: time, start: start, velocity: velocity, gravity: gravity, radius: look.radius, floorY: floorY,
            restitution: 0.5, minimumHop: 14 / frameRate, frame: frameSize, endTime: duration + 1 / frameRate,
            restsBeforeLaunch: false, catchHeight: catchHeight)
        let actor = Tosser(
            figure: figure, ball: look, flight: flight, x: x, groundY: groundY, windUp: random.uniform(0.25...0.4),
            frameWidth: Double(width))
        return (actor, ThrownBall(appearance: look, path: flight))
    }
}
