import Foundation
import TrajectoryEvaluation
import TrajectoryKit
import Testing
import TrajectorySynth

@Suite struct CatalogTests {
    @Test("every scene renders its first and last frames and has truth consistent with its purpose", arguments: CatalogScene.allCases)
    func sceneKeepsItsPromise(scene: CatalogScene) throws {
        let script = scene.script(seed: 21)
        var renderer = SceneRenderer(script: script)
        let truth = renderer.groundTruth
        for index in [0, script.frameCount - 1] {
            let frame = renderer.render(frame: index)
            #expect(frame.width == script.width && frame.height == script.height)
            let mean = frame.pixels.reduce(0) { $0 + Int($1) } / frame.pixels.count
            #expect(mean > 40 && mean < 220)
        }
        #expect(truth.scene == scene.rawValue && truth.seed == 21)
        #expect(truth.width == script.width && truth.height == script.height && truth.frameCount == script.frameCount)
        if scene == .hd60 {
            #expect(truth.width == 1920 && truth.height == 1080 && truth.frameRate == 60)
        } else {
            #expect(truth.width == 1280 && truth.height == 720 && truth.frameRate == 30)
        }
        #expect(script.duration >= 2.4 && script.duration <= 4.1)
        for flight in truth.flights {
            let frames = flight.points.map(\.frame)
            #expect(frames == Array(frames[0]...frames[frames.count - 1]))
            #expect(flight.points.allSatisfy { abs($0.time - Double($0.frame) / truth.frameRate) < 1e-12 })
        }
        checkPurpose(scene, script: script, truth: truth)
    }

    private func checkPurpose(_ scene: CatalogScene, script: SceneScript, truth: GroundTruth) {
        let kinds = Set(truth.distractors.map(\.kind))
        let reportable = truth.flights.allSatisfy {
            $0.points.filter(\.visible).count >= CatalogScene.minimumVisibleFrames
        }
        if scene != .leavingFrame {
            #expect(reportable)
        }
        switch scene {
        case .noBallWalkers:
            #expect(truth.flights.isEmpty && script.balls.isEmpty)
            #expect(kinds == ["walker"])
        case .noBallClutter:
            #expect(truth.flights.isEmpty && script.balls.isEmpty)
            #expect(kinds.isSuperset(of: ["crowd", "banner", "foliage", "carried-ball", "circular", "blinker"]))
        case .multiBall:
            let spans = truth.flights.map { $0.points.first!.frame...$0.points.last!.frame }
            #expect(spans.indices.contains { i in spans.indices.contains { j in i != j && spans[i].overlaps(spans[j]) } })
        case .bounce:
            #expect(truth.flights.count >= 2)
            #expect(script.balls.contains { $0.path.arcs.contains { $0.ending == .bounce } })
        case .occluded:
            #expect(script.actors.contains { $0.isInFrontOfBalls })
            #expect(truth.flights.contains { flight in
                let visible = flight.points.indices.filter { flight.points[$0].visible }
                return flight.points[visible.first!...visible.last!].contains { !$0.visible }
            })
        case .leavingFrame:
            let width = Double(truth.width)
            #expect(truth.flights.contains { flight in
                let last = flight.points.last!
                return last.y < flight.radius || last.x < flight.radius || last.x > width - flight.radius
            })
        case .carriedBall:
            #expect(kinds.contains("carried-ball"))
            #expect(!truth.flights.isEmpty)
        case .tossCatch:
            #expect(kinds == ["tosser"])
            #expect(!truth.flights.isEmpty)
            // Every ball ends in a hand, and its last truth point is on the way down.
            #expect(script.balls.allSatisfy { $0.path.arcs.last?.ending == .caught })
            for flight in truth.flights where flight.points.count >= 2 {
                let last = flight.points[flight.points.count - 1]
                let before = flight.points[flight.points.count - 2]
                #expect(last.y > before.y)
            }
        case .smallBall:
            #expect(truth.flights.allSatisfy { (2...3).contains($0.radius) })
        case .shake:
            #expect(script.camera.amplitude > 0)
            #expect(script.camera.offset(at: 0) != script.camera.offset(at: 0.1))
        case .lowContrast:
            #expect(script.balls.allSatisfy { abs($0.appearance.albedo - script.backdrop.upperLevel) < 40 })
        case .fastBlur:
            #expect(script.sensor.shutterFraction >= 0.8)
            #expect(script.balls.allSatisfy { abs($0.path.arcs[0].velocity.x) >= 0.9 * Double(script.width) })
        case .foliage, .crowd, .banner, .walkers:
            let kind = [CatalogScene.foliage: "foliage", .crowd: "crowd", .banner: "banner", .walkers: "walker"][scene]!
            #expect(kinds.contains(kind))
            #expect(!truth.flights.isEmpty)
        case .distractors:
            #expect(kinds.isSuperset(of: ["walker", "circular", "blinker"]))
        case .clean, .hd60:
            #expect(!truth.flights.isEmpty)
        }
    }

    @Test("scene names are the CLI's: lowercase words joined by hyphens")
    func sceneNames() {
        for scene in CatalogScene.allCases {
            #expect(scene.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
            #expect(CatalogScene(rawValue: scene.rawValue) == scene)
            #expect(!scene.summary.isEmpty)
        }
    }
}

@Suite struct ClipWritingTests {
    /// Keeps the fingerprint of every frame it is given.
    struct FingerprintSink: FrameSink {
        var fingerprints: [UInt64] = []
        mutating func append(_ frame: LumaImage) throws { fingerprints.append(fingerprint(frame)) }
    }

    @Test("writing a clip sends every frame in order and returns the renderer's truth")
    func writesEveryFrame() throws {
        let ball = flyingBall(start: SIMD2(20, 200), velocity: SIMD2(250, -420))
        let script = quietScene(balls: [ball], frameCount: 24)
        var sink = FingerprintSink()
        let truth = try script.writeClip(to: &sink)
        #expect(sink.fingerprints.count == 24)
        var renderer = SceneRenderer(script: script)
        #expect(sink.fingerprints[17] == fingerprint(renderer.render(frame: 17)))
        #expect(truth == renderer.groundTruth)
    }

    @Test("truth JSON has sorted keys, is pretty, and decodes to the same truth")
    func truthJSONRoundTrip() throws {
        let truth = CatalogScene.bounce.script(seed: 2).groundTruth()
        let data = try TruthJSON.encode(truth)
        #expect(try TruthJSON.decode(data) == truth)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\n  \"distractors\""))
        let keys = ["distractors", "flights", "frameCount", "frameRate", "height", "scene", "schemaVersion", "seed", "width"]
        let positions = keys.map { text.range(of: "\n  \"\($0)\"")!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(try TruthJSON.encode(truth) == data)
    }

    @Test("PGM encoding has the P5 header and the raw pixels")
    func pgm() {
        let image = LumaImage(width: 3, height: 2, pixels: [0, 1, 2, 253, 254, 255])
        let data = PortableGraymap.encode(image)
        #expect(data == Data("P5\n3 2\n255\n".utf8) + Data([0, 1, 2, 253, 254, 255]))
    }
}
