import Foundation
import TrajectoryKit
import TrajectoryVideo

/// A video file the suites measure, with the frame size it is expected to decode to.
public struct BenchmarkClip: Sendable {
    /// The file name without its extension, e.g. `hd60-1`.
    public let name: String
    /// Absolute path of the file.
    public let path: String
    public let width: Int
    public let height: Int

    /// How benchmarks name the clip: `hd60-1 1920x1080`.
    public var label: String { "\(name) \(width)x\(height)" }

    /// The bundled 1080p and 720p sample clips, then the shared real 720p clip when the
    /// checkout has `../shared/clips` beside it.
    public static var all: [BenchmarkClip] {
        [
            BenchmarkClip(repositoryPath: "SampleClips/hd60-1.mp4", width: 1920, height: 1080),
            BenchmarkClip(repositoryPath: "SampleClips/walkers-1.mp4", width: 1280, height: 720),
            BenchmarkClip(repositoryPath: "../shared/clips/toss-vertical.mp4", width: 1280, height: 720),
        ].filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    private init(repositoryPath: String, width: Int, height: Int) {
        path = Self.repositoryRoot.appendingPathComponent(repositoryPath).standardizedFileURL.path
        name = URL(fileURLWithPath: repositoryPath).deletingPathExtension().lastPathComponent
        self.width = width
        self.height = height
    }

    /// The trajectories checkout: this file is `<root>/Benchmarks/Benchmarks/SampleFrames/BenchmarkClip.swift`.
    /// Found from the source path, because the benchmark plugin picks the working directory.
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Opens the clip, checking that it decodes to the size its label states.
    public func open() throws -> VideoReader {
        let reader = try VideoReader(uri: path)
        guard reader.info.width == width, reader.info.height == height else {
            throw ClipSizeMismatch(clip: self, width: reader.info.width, height: reader.info.height)
        }
        return reader
    }
}

/// A clip decoded to another size than the benchmark names say.
public struct ClipSizeMismatch: Error, CustomStringConvertible {
    public let clip: BenchmarkClip
    public let width: Int
    public let height: Int

    public var description: String {
        "\(clip.path) decodes to \(width)x\(height), not the \(clip.width)x\(clip.height) its benchmarks are named after"
    }
}
