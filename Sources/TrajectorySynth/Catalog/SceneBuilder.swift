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
        let upper: Float = style == .field ? Float(random.uniform(165...200)) : Float(random.uniform(140...175))
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
    mutating func ballAppearance(radius: ClosedRange<Double>? = nil) -> BallAppearance {
        let r = radius.map { random.uniform($0) } ?? random.uniform(0.10...0.12) * pixelsPerMetre
        let light = SIMD3(random.uniform(-0.2...0.2), random.uniform(-0.25...(-0.05)), 1)
        return BallAppearance(
            radius: r, albedo: Float(random.uniform(205...245)), ambient: Float(random.uniform(0.4...0.55)),
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
            start = SIMD2(direction > 0 ? -r - 1 : w + r + 1, y0)
            let apexRise = random.uniform(0.05...0.9) * (y0 - 2 * r)
            velocity = SIMD2(direction * random.uniform(0.3...0.8) * w, -(2 * g * max(apexRise, 1)).squareRoot())
        }
        let path = BallPath(
            launchTime: time, start: start, velocity: velocity, gravity: g, radius: r, floorY: floorY,
            restitution: random.uniform(restitution), minimumHop: 14 / frameRate, frame: frameSize,
            endTime: duration + 1 / frameRate, restsBeforeLaunch: launch == .kick)
        return ThrownBall(appearance: appearance, path: path)
    }

    // MARK: People

    /// A walker somewhere between the horizon and the camera, scaled by perspective,
    /// crossing at 1–1.7 m/s.
    mutating func walker() -> Walker {
        let groundY = random.uniform((horizonY + 0.25 * (Double(height) - horizonY))...(Double(height) * 1.02))
        let figureHeight = 1.75 * pixelsPerMetre * (groundY - horizonY) / (floorY - horizonY)
        let metres = figureHeight / 1.75
        let speed = random.sign() * random.uniform(1.0...1.7) * metres
        let w = Double(width)
        let startX = speed > 0 ? random.uniform(-0.3...0.5) * w : random.uniform(0.5...1.3) * w
        let figure = HumanFigure(
            height: figureHeight, skinLevel: Float(random.uniform(110...200)), shirtLevel: Float(random.uniform(20...235)),
            trousersLevel: Float(random.uniform(25...120)), facing: speed)
        return Walker(
            figure: figure, startX: startX, groundY: groundY, speed: speed, phase: random.uniform(0...6.28),
            frameWidth: w)
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
