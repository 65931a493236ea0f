import ArgumentParser
import Foundation
import TrajectorySynth

/// `trajectories synth`: a generated clip with its ground truth, for measuring accuracy.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Render a synthetic scene with known ball flights as an H.264 clip plus its ground truth.",
        discussion: """
            Writes DIR/<scene>-<seed>.mp4 and DIR/<scene>-<seed>.truth.json. The same scene and seed \
            give the same clip on every machine. Score a detect result against the truth with \
            `trajectories evaluate`. --list shows the scenes.
            """)

    @Option(help: "The scene to render (see --list).")
    var scene: CatalogScene?

    @Option(help: "Seeds to render the scene with, comma-separated: each gives a different layout of flights and distractors.")
    var seed: SeedList = SeedList(values: [1])

    @Option(name: .customLong("out"), help: "Folder to write into (created if missing).")
    var folder: String?

    @Option(help: "x264 constant rate factor: 0 is lossless, 51 the worst quality.")
    var crf = SceneExport.defaultQuality

    @Option(
        name: .customLong("frame-rate"),
        help: "Frames a second to render at, e.g. 240 for slow motion (default: the scene's own, 30, or 60 for hd60).")
    var frameRate: Int?

    @Flag(help: "List the scenes and what each is for.")
    var list = false

    /// Frame rates a scene may be rendered at: from a slide show to high-speed cameras.
    static let allowedFrameRates = 1...1000

    func validate() throws {
        if list { return }
        guard scene != nil else { throw ValidationError("--scene is required (see --list for the scenes).") }
        guard folder != nil else { throw ValidationError("--out is required: the folder to write the clip into.") }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be between 0 and 51 (got \(crf)).") }
        if let frameRate, !Self.allowedFrameRates.contains(frameRate) {
            throw ValidationError("--frame-rate must be between \(Self.allowedFrameRates.lowerBound) and \(Self.allowedFrameRates.upperBound) (got \(frameRate)).")
        }
    }

    func run() throws {
        try Diagnostics.reportingFailures {
            if list {
                let lines = CatalogScene.allCases.map { "\($0.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.summary)" }
                try OutputDestination(path: nil).writeDocument(Data((lines.joined(separator: "\n") + "\n").utf8))
                return
            }
            guard let scene, let folder else { return }
            let folderURL = URL(fileURLWithPath: folder)
            do {
                try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("cannot create folder '\(folder)': \(error.localizedDescription)")
            }
            for seed in self.seed.values {
                let clip = try SceneExport.write(scene, seed: seed, to: folderURL, crf: crf, frameRate: frameRate)
                print("\(clip.video.path)\t\(clip.truth.flights.count) flights, \(clip.truth.frameCount) frames")
            }
        }
    }
}

extension CatalogScene: ExpressibleByArgument {}

/// `--seed 1,2,3`: one or more non-negative integers.
struct SeedList: ExpressibleByArgument {
    let values: [UInt64]

    init(values: [UInt64]) {
        self.values = values
    }

    init?(argument: String) {
        let values = argument.split(separator: ",").map { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
        self.values = values.compactMap { $0 }
    }

    var defaultValueDescription: String { values.map(String.init).joined(separator: ",") }
}
