import Foundation
import TrajectoryEvaluation
import TrajectoryKit

/// Where rendered frames go, one at a time, in presentation order: a video encoder, a
/// folder of images, a test's hash.
public protocol FrameSink: ~Copyable {
    mutating func append(_ frame: LumaImage) throws
}

extension SceneRenderer {
    /// Renders every frame of the clip into `sink`, in order, and returns the truth.
    /// Memory stays flat: one image is reused for every frame.
    public mutating func writeClip<Sink: FrameSink & ~Copyable>(to sink: inout Sink) throws -> GroundTruth {
        var image = makeImage()
        for index in 0..<script.frameCount {
            render(frame: index, into: &image)
            try sink.append(image)
        }
        return groundTruth
    }
}

extension SceneScript {
    /// Renders this scene into `sink` and returns its ground truth.
    public func writeClip<Sink: FrameSink & ~Copyable>(to sink: inout Sink) throws -> GroundTruth {
        var renderer = SceneRenderer(script: self)
        return try renderer.writeClip(to: &sink)
    }
}

/// The truth file's JSON form (`<clip>.truth.json`): pretty, keys sorted, so that files
/// diff cleanly and the same scene always gives the same bytes.
public enum TruthJSON {
    public static func encode(_ truth: GroundTruth) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(truth)
    }

    public static func decode(_ data: Data) throws -> GroundTruth {
        try JSONDecoder().decode(GroundTruth.self, from: data)
    }
}

/// Binary PGM (P5), the simplest image format any viewer opens: for looking at frames.
public enum PortableGraymap {
    public static func encode(_ image: LumaImage) -> Data {
        var data = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.pixels)
        return data
    }
}

/// Writes each frame as `frame-00000.pgm`, `frame-00001.pgm`, … in a folder.
public struct PGMFolderSink: FrameSink {
    public let folder: URL
    public private(set) var count = 0

    public init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
    }

    public mutating func append(_ frame: LumaImage) throws {
        let name = "frame-" + String(repeating: "0", count: max(0, 5 - String(count).count)) + String(count) + ".pgm"
        try PortableGraymap.encode(frame).write(to: folder.appendingPathComponent(name))
        count += 1
    }
}
