import TrajectoryEvaluation
import TrajectoryKit
import Testing
import TrajectorySynth

@Suite struct DeterminismTests {
    static let scenes: [CatalogScene] = [.clean, .walkers, .shake, .noBallClutter]

    @Test("the same scene and seed give the same frames and truth", arguments: scenes)
    func sameSeedSameClip(scene: CatalogScene) {
        var first = SceneRenderer(script: scene.script(seed: 11))
        var second = SceneRenderer(script: scene.script(seed: 11))
        #expect(first.groundTruth == second.groundTruth)
        for index in [0, first.script.frameCount - 1] {
            #expect(fingerprint(first.render(frame: index)) == fingerprint(second.render(frame: index)))
        }
    }

    @Test("another seed gives other frames and other truth", arguments: scenes)
    func otherSeedOtherClip(scene: CatalogScene) {
        var first = SceneRenderer(script: scene.script(seed: 11))
        var second = SceneRenderer(script: scene.script(seed: 12))
        if !first.groundTruth.flights.isEmpty {
            #expect(first.groundTruth.flights != second.groundTruth.flights)
        }
        #expect(fingerprint(first.render(frame: 0)) != fingerprint(second.render(frame: 0)))
    }

    @Test("a frame is the same whether rendered alone or after the others (frames on demand)")
    func orderDoesNotMatter() {
        let script = CatalogScene.distractors.script(seed: 3)
        var alone = SceneRenderer(script: script)
        let late = fingerprint(alone.render(frame: 20))
        var inOrder = SceneRenderer(script: script)
        var image = inOrder.makeImage()
        for index in 0...20 { inOrder.render(frame: index, into: &image) }
        #expect(fingerprint(image) == late)
    }

    @Test("consecutive frames differ by sensor noise even where nothing moves")
    func noiseChangesEveryFrame() {
        var renderer = SceneRenderer(script: CatalogScene.clean.script(seed: 4))
        let a = renderer.render(frame: 0)
        let b = renderer.render(frame: 1)
        let changed = zip(a.pixels, b.pixels).filter { $0 != $1 }.count
        #expect(Double(changed) > 0.5 * Double(a.pixels.count))
        let meanDifference = zip(a.pixels, b.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.pixels.count)
        // Two independent draws of σ ≈ 2.5 differ by about 2.8 on average; objects moving add little.
        #expect(meanDifference > 1.5 && meanDifference < 5)
    }
}
