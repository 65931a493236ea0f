import TrajectoryEvaluation

/// The named synthetic scenes. Each is randomised by a seed (number, launch and speed of
/// the flights, placement of distractors) and always gives the same clip for the same seed.
///
/// Unless a scene is about leaving the frame, every flight shows the ball in at least
/// `CatalogScene.minimumVisibleFrames` frames, so a correct detector can report it.
/// Default format: 1280×720 at 30 fps, 2.5–4 s.
public enum CatalogScene: String, Sendable, Hashable, CaseIterable {
    case clean
    case walkers
    case bounce
    case multiBall = "multi-ball"
    case foliage
    case crowd
    case banner
    case distractors
    case carriedBall = "carried-ball"
    case tossCatch = "toss-catch"
    case shake
    case smallBall = "small-ball"
    case lowContrast = "low-contrast"
    case fastBlur = "fast-blur"
    case occluded
    case leavingFrame = "leaving-frame"
    case hd60
    case noBallWalkers = "no-ball-walkers"
    case noBallClutter = "no-ball-clutter"

    /// Frames in which every catalogue flight shows its ball (except in `leaving-frame`).
    public static let minimumVisibleFrames = 12

    /// One line saying what the scene is for.
    public var summary: String {
        switch self {
        case .clean: "one or two balls kicked, tossed or thrown in over a still background; nothing else moves"
        case .walkers: "balls in flight while people walk across the scene"
        case .bounce: "a ball bouncing on the floor: each bounce starts a new flight"
        case .multiBall: "several balls in the air at the same time"
        case .foliage: "balls in flight beside trees whose leaves flutter in the wind"
        case .crowd: "balls in flight in front of a stand of fidgeting spectators"
        case .banner: "balls in flight past LED boards with scrolling lettering"
        case .distractors: "balls in flight among walkers, circling markers, blinking lights and a slow vehicle"
        case .carriedBall: "people swinging balls in their hands (not flights) and one real flight"
        case .tossCatch: "people tossing a ball up and catching it: each flight ends in the hand"
        case .shake: "balls in flight filmed by a shaking hand-held camera"
        case .smallBall: "small balls, 2–3 px in radius"
        case .lowContrast: "balls barely brighter than a dull background, with more noise"
        case .fastBlur: "fast, flat throws with a long shutter: long motion-blur streaks"
        case .occluded: "balls passing behind posts: hidden for a few frames mid-flight"
        case .leavingFrame: "balls leaving the frame: over the top and back, or out at a side"
        case .hd60: "1920×1080 at 60 fps, balls and a walker"
        case .noBallWalkers: "people walking, no ball at all"
        case .noBallClutter: "every kind of distractor and a shaking camera, no ball in flight"
        }
    }

    /// The scene's own frame rate: 60 for hd60, 30 for the others.
    public var frameRate: Double { self == .hd60 ? 60 : 30 }

    /// The scene for `seed`, rendered at `frameRate` frames a second (the scene's own when
    /// nil). The motion is the same in seconds at any rate, but the layout drawn for a seed
    /// may differ, since a layout must keep the scene's promises counted in frames.
    public func script(seed: UInt64, frameRate: Double? = nil) -> SceneScript {
        let frameRate = frameRate ?? self.frameRate
        var attempt = self == .hd60
            ? SceneBuilder(name: rawValue, seed: seed, width: 1920, height: 1080, frameRate: frameRate)
            : SceneBuilder(name: rawValue, seed: seed, frameRate: frameRate)
        // Draw until the random choices keep the scene's promise (flights long enough…);
        // the draws go on from the same generator, so this stays deterministic.
        for _ in 0..<500 {
            var builder = attempt
            build(&builder)
            let script = builder.script()
            if accepts(script.groundTruth()) {
                return script
            }
            attempt.random = builder.random
        }
        preconditionFailure("scene \(rawValue) found no acceptable layout for seed \(seed)")
    }

    private func accepts(_ truth: GroundTruth) -> Bool {
        let reportable = truth.everyFlightVisible(atLeast: Self.minimumVisibleFrames)
        switch self {
        case .noBallWalkers, .noBallClutter:
            return truth.flights.isEmpty
        case .multiBall:
            return reportable && truth.hasSimultaneousFlights
        case .bounce:
            return reportable && truth.flights.count >= 2
        case .occluded:
            return reportable && truth.flights.contains { $0.hasHiddenStretch }
        case .leavingFrame:
            return truth.flights.count >= 2 && truth.flights.contains { $0.points.filter(\.visible).count >= Self.minimumVisibleFrames }
        default:
            return reportable && !truth.flights.isEmpty
        }
    }

    private func build(_ scene: inout SceneBuilder) {
        switch self {
        case .clean:
            addFlights(&scene)
        case .walkers:
            for _ in 0..<scene.random.integer(in: 2...4) { scene.actors.append(scene.walker()) }
            addFlights(&scene)
        case .bounce:
            let look = scene.ballAppearance()
            let launch: SceneBuilder.Launch = scene.random.chance(0.5) ? .kick : .entry
            let time = scene.random.uniform(0.05...0.5)
            scene.balls.append(scene.ball(launch, at: time, appearance: look, restitution: 0.6...0.78))
        case .multiBall:
            for _ in 0..<scene.random.integer(in: 3...4) {
                let launch = scene.random.element(of: SceneBuilder.Launch.allCases)
                let time = scene.random.uniform(0.05...max(0.1, scene.duration * 0.45))
                let look = scene.ballAppearance()
                scene.balls.append(scene.ball(launch, at: time, appearance: look))
            }
        case .foliage:
            for _ in 0..<scene.random.integer(in: 1...3) { scene.actors.append(scene.foliage()) }
            addFlights(&scene)
        case .crowd:
            scene.backdrop.style = .field
            scene.actors.append(scene.crowd())
            addFlights(&scene)
        case .banner:
            scene.backdrop.style = .field
            scene.actors.append(scene.banner(top: scene.horizonY + 1))
            if scene.random.chance(0.5) {
                scene.actors.append(scene.banner(top: scene.horizonY - scene.random.uniform(0.1...0.25) * Double(scene.height)))
            }
            addFlights(&scene)
        case .distractors:
            addDistractors(&scene)
            addFlights(&scene)
        case .carriedBall:
            addFlights(&scene, count: 1)
            // The carried balls look exactly like the thrown one.
            let look = scene.balls[0].appearance
            for _ in 0..<scene.random.integer(in: 1...2) { scene.actors.append(scene.carrier(ball: look)) }
        case .tossCatch:
            let count = scene.random.integer(in: 1...2)
            for index in 0..<count {
                let time = Double(index) * scene.duration / Double(count) + scene.random.uniform(0.4...0.8)
                let (person, ball) = scene.tosser(at: time)
                scene.actors.append(person)
                scene.balls.append(ball)
            }
        case .shake:
            scene.camera = CameraShake(
                amplitude: scene.random.uniform(2...5), knotInterval: scene.random.uniform(0.12...0.3),
                seed: scene.random.next())
            if scene.random.chance(0.5) { scene.actors.append(scene.walker()) }
            addFlights(&scene)
        case .smallBall:
            addFlights(&scene, radius: 2...3)
        case .lowContrast:
            makeDull(&scene)
        case .fastBlur:
            scene.sensor.shutterFraction = scene.random.uniform(0.8...1)
            let count = scene.random.integer(in: 1...2)
            for index in 0..<count {
                let time = Double(index) * scene.duration / Double(count) + scene.random.uniform(0.05...0.6)
                let look = scene.ballAppearance()
                scene.balls.append(scene.fastThrow(at: time, appearance: look))
            }
        case .occluded:
            for _ in 0..<scene.random.integer(in: 1...2) {
                let x = scene.random.uniform(0.25...0.75) * Double(scene.width)
                let halfWidth = scene.random.uniform(0.07...0.15) * scene.pixelsPerMetre
                scene.actors.append(Pole(
                    centerX: x, halfWidth: halfWidth, top: scene.random.uniform(0...0.2) * Double(scene.height),
                    bottom: scene.floorY + 4, level: Float(scene.random.uniform(150...235))))
            }
            addFlights(&scene)
        case .leavingFrame:
            let look = scene.ballAppearance()
            scene.balls.append(scene.highToss(at: scene.random.uniform(0.05...0.4), appearance: look))
            if scene.random.chance(0.5) {
                let side = scene.ballAppearance()
                scene.balls.append(scene.fastThrow(at: scene.random.uniform(0.2...1.5), appearance: side))
            }
        case .hd60:
            scene.actors.append(scene.walker())
            addFlights(&scene)
        case .noBallWalkers:
            for _ in 0..<scene.random.integer(in: 3...5) { scene.actors.append(scene.walker()) }
        case .noBallClutter:
            scene.backdrop.style = .field
            scene.camera = CameraShake(amplitude: scene.random.uniform(1...3), seed: scene.random.next())
            scene.actors.append(scene.crowd())
            scene.actors.append(scene.banner(top: scene.horizonY + 1))
            scene.actors.append(scene.foliage())
            addDistractors(&scene)
            scene.actors.append(scene.carrier())
        }
    }

    /// One to `count` balls, each launched in a random way during its share of the clip.
    private func addFlights(_ scene: inout SceneBuilder, count: Int = 2, radius: ClosedRange<Double>? = nil) {
        let flights = scene.random.integer(in: 1...count)
        let slot = scene.duration / Double(flights)
        for index in 0..<flights {
            let launch = scene.random.element(of: SceneBuilder.Launch.allCases)
            let time = Double(index) * slot + scene.random.uniform(0.1...max(0.15, slot - 1.2))
            let look = scene.ballAppearance(radius: radius)
            scene.balls.append(scene.ball(launch, at: time, appearance: look))
        }
    }

    /// Walkers, circling markers, blinking lights and a slow vehicle, a few of each.
    private func addDistractors(_ scene: inout SceneBuilder) {
        if scene.random.chance(0.7) { scene.actors.append(scene.slowVehicle()) }
        for _ in 0..<scene.random.integer(in: 1...3) { scene.actors.append(scene.walker()) }
        for _ in 0..<scene.random.integer(in: 1...2) { scene.actors.append(scene.circularMover()) }
        for _ in 0..<scene.random.integer(in: 1...3) { scene.actors.append(scene.blinkingLight()) }
    }

    /// An overcast, flat-lit scene: sky and ground close in brightness, little texture,
    /// more noise, and balls only slightly brighter than what is behind them.
    private func makeDull(_ scene: inout SceneBuilder) {
        let grey = Float(scene.random.uniform(110...150))
        scene.backdrop.upperLevel = grey + 12
        scene.backdrop.lowerLevel = grey - 8
        scene.backdrop.texture = 3
        scene.sensor.noiseDeviation = scene.random.uniform(3...4)
        let flights = scene.random.integer(in: 1...2)
        for index in 0..<flights {
            var look = scene.ballAppearance()
            look.albedo = grey + Float(scene.random.uniform(18...30))
            look.ambient = 0.85
            look.highlight = 0
            let launch = scene.random.element(of: SceneBuilder.Launch.allCases)
            let time = Double(index) * scene.duration / Double(flights) + scene.random.uniform(0.1...0.5)
            scene.balls.append(scene.ball(launch, at: time, appearance: look))
        }
    }
}

extension GroundTruth.Flight {
    /// Whether the ball is hidden for some frames between visible ones (behind something,
    /// not at the frame's edge).
    var hasHiddenStretch: Bool {
        guard let first = points.firstIndex(where: \.visible), let last = points.lastIndex(where: \.visible) else {
            return false
        }
        return points[first...last].contains { !$0.visible }
    }
}
