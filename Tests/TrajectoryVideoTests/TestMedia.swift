import Foundation
import TestSupport
import TrajectoryKit
import TrajectoryVideo

/// A fresh directory for one test's media (a ``TestFolder``), removed with everything in it as
/// soon as it goes away, so that large media does not pile up while the tests run.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = try TestFolder.fresh().path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// A synthetic scene: a bright square moving right by `step` pixels per frame over a grey
/// background, with known geometry to compare decoded frames with.
struct MovingSquare {
    var width = 320
    var height = 240
    var side = 20
    var step = 8
    var background: UInt8 = 96
    var square: UInt8 = 224
    var top = 110
    var firstLeft = 10
    /// Grey levels of pseudo-random texture added to the background, different in every frame,
    /// so frames code to realistic sizes. It stays below the midpoint `brightCentroid` uses.
    var noise = 0

    func left(ofFrame index: Int) -> Int { firstLeft + step * index }

    /// The square's centre in frame `index`, in pixel coordinates (pixel i covers [i, i+1)).
    func centre(ofFrame index: Int) -> PixelPoint {
        PixelPoint(x: Double(left(ofFrame: index)) + Double(side) / 2, y: Double(top) + Double(side) / 2)
    }

    func image(_ index: Int) -> LumaImage {
        var image = LumaImage(width: width, height: height, fill: background)
        if noise > 0 {
            var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
            for offset in image.pixels.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                image.pixels[offset] = UInt8(Int(background) + Int(state >> 33) % (2 * noise + 1) - noise)
            }
        }
        let left = left(ofFrame: index)
        for y in top..<(top + side) {
            for x in left..<(left + side) where x < width {
                image[x, y] = square
            }
        }
        return image
    }

    /// Writes `count` frames to `path`.
    func write(to path: String, count: Int, settings: VideoWriter.Settings) throws {
        var writer = try VideoWriter(path: path, width: width, height: height, settings: settings)
        for index in 0..<count {
            try writer.append(image(index))
        }
        try writer.finish()
    }

    /// The centroid of pixels brighter than the background, weighted by how much brighter.
    func brightCentroid(of image: LumaImage) -> PixelPoint? {
        var total = 0.0, sumX = 0.0, sumY = 0.0
        let threshold = (Int(background) + Int(square)) / 2
        for y in 0..<image.height {
            for x in 0..<image.width {
                let weight = Double(max(0, Int(image[x, y]) - threshold))
                total += weight
                sumX += weight * (Double(x) + 0.5)
                sumY += weight * (Double(y) + 0.5)
            }
        }
        return total > 0 ? PixelPoint(x: sumX / total, y: sumY / total) : nil
    }
}

/// Mean absolute difference of two equally sized images, in grey levels.
func meanAbsoluteError(_ a: LumaImage, _ b: LumaImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    let sum = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(sum) / Double(a.pixels.count)
}

/// Largest absolute difference of two equally sized images, in grey levels.
func maximumAbsoluteError(_ a: LumaImage, _ b: LumaImage) -> Int {
    zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

/// Every frame of `uri` as images, and the reader's warnings.
func decodeAll(_ uri: String) throws -> (info: VideoInfo, frames: [(image: LumaImage, stamp: FrameStamp)], warnings: [String]) {
    var reader = try VideoReader(uri: uri)
    var frames: [(image: LumaImage, stamp: FrameStamp)] = []
    while let frame = try reader.nextImage() {
        frames.append(frame)
    }
    return (reader.info, frames, reader.warnings)
}

/// Settings that encode quickly, for tests.
func quickSettings(
    _ format: VideoWriter.Format = .h264, frameRate: FrameRate = 30, crf: Int = 18, rotation: Int = 0
) -> VideoWriter.Settings {
    VideoWriter.Settings(format: format, frameRate: frameRate, crf: crf, preset: "ultrafast", rotation: rotation)
}
