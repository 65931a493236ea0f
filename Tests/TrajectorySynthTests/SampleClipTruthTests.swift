import Foundation
import Testing
import TrajectorySynth

/// The bundled sample clips were made by this generator: their truth files are exactly what
/// it makes today for the same scene and seed.
@Suite struct SampleClipTruthTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleClips")

    @Test("each sample clip's truth file equals the generator's truth for its scene and seed", arguments: [
        (CatalogScene.clean, UInt64(1)), (.walkers, 1), (.bounce, 1), (.hd60, 1),
    ])
    func truthIsReproducible(scene: CatalogScene, seed: UInt64) throws {
        let file = Self.folder.appendingPathComponent("\(SceneExport.baseName(scene, seed: seed)).truth.json")
        let committed = try Data(contentsOf: file)
        #expect(try TruthJSON.encode(scene.script(seed: seed).groundTruth()) == committed)
    }
}
