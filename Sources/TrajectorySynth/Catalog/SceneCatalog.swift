import TrajectoryEvaluation

/// The named synthetic scenes. Each is randomised by a seed (number, launch and speed of
/// the flights, placement of distractors) and always gives the same clip for the same seed.
///
/// Unless a scene is about leaving the frame, every flight shows the ball in at least
/// `CatalogScene.minimumVisibleFrames` frames, so a correct detector can report it.
public enum CatalogScene: String, Sendable, Hashable, CaseIterable {
    case clean
    case walkers
    case bounce
    case multiBall = "multi-ball"

    /// Frames in which every catalogue flight shows its ball (except in `leaving-frame`).
    public static let minimumVisibleFrames = 12

    /// One line saying what the scene is for.
    public var summary: String {
        switch self {
        case .clean: "one or two balls kicked, tossed or thrown in over a still background; nothing else moves"
        case .walkers: "balls in flight while people walk across the scene"
        case .bounce: "a ball bouncing on the floor: each bounce starts a new flight"
        case .multiBall: "several balls in the air at the same time"
        }
    }

    /// The scene for `seed`.
    public func script(seed: UInt64) -> SceneScript {
        var attempt = SceneBuilder(name: rawValue, seed: seed)
        // Draw until the random choices give flights that keep the scene's promise; the
        // draws continue from the same generator, so this stays deterministic.
        for _ in 0..<500 {
            var builder = attempt
            build(&builder)
            let script = builder.script()
            if accepts(TruthBuilder(script: script).groundTruth()) {
                return script
            }
            attempt.random = builder.random
        }
        preconditionFailure("scene \(rawValue) found no acceptable layout for seed \(seed)")
    }

    private func build(_ scene: inout SceneBuilder) {
        switch self {
        case .clean: buildClean(&scene)
        case .walkers: buildWalkers(&scene)
        case .bounce: buildBounce(&scene)
        case .multiBall: buildMultiBall(&scene)
        }
    }

    private func accepts(_ truth: GroundTruth) -> Bool {
        let reportable = truth.everyFlightVisible(atLeast: Self.minimumVisibleFrames)
        switch self {
        case .multiBall: return reportable && truth.hasSimultaneousFlights
        default: return reportable && !truth.flights.isEmpty
        }
    }
}

extension CatalogScene {
    private func buildClean(_ scene: inout SceneBuilder) {
        let count = scene.random.integer(in: 1...2)
        let slot = scene.duration / Double(count)
        for index in 0..<count {
            let launch = scene.random.element(of: SceneBuilder.Launch.allCases)
            let time = Double(index) * slot + scene.random.uniform(0.1...max(0.15, slot - 1.2))
            let look = scene.ballAppearance()
            scene.balls.append(scene.ball(launch, at: time, appearance: look))
        }
    }

    private func buildWalkers(_ scene: inout SceneBuilder) {
        for _ in 0..<scene.random.integer(in: 2...4) {
            scene.actors.append(scene.walker())
        }
        buildClean(&scene)
    }

    private func buildBounce(_ scene: inout SceneBuilder) {
        let look = scene.ballAppearance()
        let launch: SceneBuilder.Launch = scene.random.chance(0.5) ? .kick : .entry
        let time = scene.random.uniform(0.05...0.5)
        scene.balls.append(scene.ball(launch, at: time, appearance: look, restitution: 0.6...0.78))
    }

    private func buildMultiBall(_ scene: inout SceneBuilder) {
        let count = scene.random.integer(in: 3...4)
        for _ in 0..<count {
            let launch = scene.random.element(of: SceneBuilder.Launch.allCases)
            let time = scene.random.uniform(0.05...max(0.1, scene.duration * 0.45))
            let look = scene.ballAppearance()
            scene.balls.append(scene.ball(launch, at: time, appearance: look))
        }
    }
}
