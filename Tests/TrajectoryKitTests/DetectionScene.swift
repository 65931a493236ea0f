import Foundation
import TrajectoryKit

/// Something drawn on a test frame: a disc (a ball), optionally smeared along its motion
/// during the exposure, or an axis-aligned rectangle.
struct SceneObject {
    enum Shape {
        /// A ball of `radius` whose centre moves from `start` to `end` while the shutter is open.
        case disc(radius: Double, start: PixelPoint, end: PixelPoint)
        case rectangle(minX: Double, minY: Double, width: Double, height: Double)
    }

    var shape: Shape
    /// Grey level of the object.
    var luma: Double
    /// Amplitude of a fixed pattern painted on the object (0 for a uniform object), so that
    /// a large object also changes inside itself when it moves, as clothing or skin does.
    var textureAmplitude: Double = 0
    /// How many grey levels the object brightens per pixel from its left edge to its right (a
    /// rectangle lit from one side): every pixel of it changes when it moves sideways. Used
    /// only without a pattern (`textureAmplitude` 0).
    var sidewaysShading: Double = 0

    /// A sharp ball at `center`.
    static func ball(at center: PixelPoint, radius: Double, luma: Double) -> SceneObject {
        SceneObject(shape: .disc(radius: radius, start: center, end: center), luma: luma)
    }

    /// A ball blurred along its path from `start` to `end` during the exposure.
    static func streak(from start: PixelPoint, to end: PixelPoint, radius: Double, luma: Double) -> SceneObject {
        SceneObject(shape: .disc(radius: radius, start: start, end: end), luma: luma)
    }

    /// Fraction of pixel (x, y) the object covers, with anti-aliased edges.
    func coverage(x: Int, y: Int) -> Double {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        switch shape {
        case let .disc(radius, start, end):
            // The exposure, sampled at evenly spaced instants.
            let instants = start == end ? 1 : 48
            var covered = 0.0
            for instant in 0..<instants {
                let t = instants == 1 ? 0 : Double(instant) / Double(instants - 1)
                let cx = start.x + (end.x - start.x) * t, cy = start.y + (end.y - start.y) * t
                let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
                covered += min(1, max(0, radius - distance + 0.5))
            }
            return covered / Double(instants)
        case let .rectangle(minX, minY, width, height):
            let across = min(px + 0.5, minX + width) - max(px - 0.5, minX)
            let down = min(py + 0.5, minY + height) - max(py - 0.5, minY)
            return max(0, min(1, across)) * max(0, min(1, down))
        }
    }

    /// The object's grey level at pixel (x, y): its luma plus its own pattern, which moves
    /// with it.
    func shade(x: Int, y: Int) -> Double {
        guard textureAmplitude > 0 || sidewaysShading != 0, case let .rectangle(minX, minY, _, _) = shape else {
            return luma
        }
        let u = Double(x) - minX, v = Double(y) - minY
        guard textureAmplitude > 0 else { return luma + sidewaysShading * (u + 0.5) }
        // Frequencies chosen so that no small shift maps the pattern onto itself.
        return luma + textureAmplitude * sin(u * 0.37 + 2 * sin(v * 0.13)) * cos(v * 0.29 + u * 0.05)
    }

    /// The same object moved by `offset`.
    func moved(by offset: PixelPoint) -> SceneObject {
        var moved = self
        switch shape {
        case let .disc(radius, start, end):
            moved.shape = .disc(
                radius: radius, start: PixelPoint(x: start.x + offset.x, y: start.y + offset.y),
                end: PixelPoint(x: end.x + offset.x, y: end.y + offset.y))
        case let .rectangle(minX, minY, width, height):
            moved.shape = .rectangle(minX: minX + offset.x, minY: minY + offset.y, width: width, height: height)
        }
        return moved
    }

    /// Pixels that may be covered: the bounding box with a margin for anti-aliasing.
    var pixelBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int) {
        switch shape {
        case let .disc(radius, start, end):
            return (
                Int((min(start.x, end.x) - radius - 2).rounded(.down)), Int((min(start.y, end.y) - radius - 2).rounded(.down)),
                Int((max(start.x, end.x) + radius + 2).rounded(.up)), Int((max(start.y, end.y) + radius + 2).rounded(.up)))
        case let .rectangle(minX, minY, width, height):
            return (
                Int(minX.rounded(.down)) - 1, Int(minY.rounded(.down)) - 1,
                Int((minX + width).rounded(.up)) + 1, Int((minY + height).rounded(.up)) + 1)
        }
    }
}

/// Renders test frames: a fixed textured background, objects on it, and fresh Gaussian
/// noise in every frame.
///
/// The camera may move: with `cameraOffset` set, the background and `scenery` show shifted by
/// it (exactly, sub-pixel offsets included, as a camera would see them), while the objects
/// passed to ``frame(_:)`` are drawn where they are given, which is where they show.
struct DetectionScene {
    let width: Int
    let height: Int
    /// Standard deviation of the per-frame noise, in grey levels.
    var noiseSigma: Double
    /// Where the camera has moved the picture: a point of the background at p shows at p + offset.
    var cameraOffset = PixelPoint(x: 0, y: 0)
    /// Still objects of the scene (sharp-edged boxes, say), painted on the background and moved
    /// with it by the camera.
    var scenery: [SceneObject] = []
    private let background: [Double]
    private let backgroundLuma: Double
    private let textureAmplitude: Double
    private let waves: [(fx: Double, fy: Double, phase: Double)]
    private var generator: SeededGenerator

    /// - Parameters:
    ///   - textureAmplitude: how far the background's pattern swings around `backgroundLuma`.
    init(width: Int, height: Int, noiseSigma: Double, backgroundLuma: Double = 110,
         textureAmplitude: Double = 30, seed: UInt64 = 1) {
        self.width = width
        self.height = height
        self.noiseSigma = noiseSigma
        generator = SeededGenerator(seed: seed)
        // A few sinusoids of random direction and phase: texture on several scales.
        var waves: [(fx: Double, fy: Double, phase: Double)] = []
        for _ in 0..<6 {
            let angle = Double.random(in: 0..<Double.pi, using: &generator)
            let frequency = Double.random(in: 0.03...0.25, using: &generator)
            waves.append((frequency * cos(angle), frequency * sin(angle), Double.random(in: 0..<6.3, using: &generator)))
        }
        self.waves = waves
        self.backgroundLuma = backgroundLuma
        self.textureAmplitude = textureAmplitude
        background = Self.texture(
            width: width, height: height, luma: backgroundLuma, amplitude: textureAmplitude, waves: waves, offset: (0, 0))
    }

    /// The sum of the waves around `luma`, with the pattern moved by `offset`.
    private static func texture(
        width: Int, height: Int, luma: Double, amplitude: Double, waves: [(fx: Double, fy: Double, phase: Double)],
        offset: (x: Double, y: Double)
    ) -> [Double] {
        var background = [Double](repeating: luma, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) - offset.x, v = Double(y) - offset.y
                var pattern = 0.0
                for wave in waves { pattern += sin(u * wave.fx + v * wave.fy + wave.phase) }
                background[y * width + x] += amplitude * pattern / Double(waves.count).squareRoot()
            }
        }
        return background
    }

    /// The next frame: background and scenery as the camera shows them, then `objects` in
    /// order, then noise.
    mutating func frame(_ objects: [SceneObject] = []) -> LumaImage {
        let still = cameraOffset == PixelPoint(x: 0, y: 0)
        var values = still ? background : Self.texture(
            width: width, height: height, luma: backgroundLuma, amplitude: textureAmplitude, waves: waves,
            offset: (cameraOffset.x, cameraOffset.y))
        Self.paint(scenery.map { $0.moved(by: cameraOffset) } + objects, onto: &values, width: width)
        for index in values.indices { values[index] += noiseSigma * generator.nextGaussian() }
        return Self.image(of: values, width: width)
    }

    /// Paints `objects`, in order, onto `values`, a picture `width` pixels wide.
    static func paint(_ objects: [SceneObject], onto values: inout [Double], width: Int) {
        let height = values.count / width
        for object in objects {
            let bounds = object.pixelBounds
            let rows = clamp(bounds.minY..<bounds.maxY, to: height)
            let columns = clamp(bounds.minX..<bounds.maxX, to: width)
            for y in rows {
                for x in columns {
                    let covered = object.coverage(x: x, y: y)
                    guard covered > 0 else { continue }
                    let index = y * width + x
                    values[index] += (object.shade(x: x, y: y) - values[index]) * covered
                }
            }
        }
    }

    /// A picture `width` pixels wide of `values` rounded to grey levels.
    static func image(of values: [Double], width: Int) -> LumaImage {
        LumaImage(width: width, height: values.count / width, pixels: values.map { UInt8(min(255, max(0, $0.rounded()))) })
    }

    private static func clamp(_ range: Range<Int>, to size: Int) -> Range<Int> {
        range.clamped(to: 0..<size)
    }
}

/// A picture of nothing but noise as a codec encodes it: every frame fresh Gaussian noise,
/// except that a fraction of its 16 × 16 blocks copy the last frame's noise from two pixels
/// away, all from one direction, which changes from frame to frame. The objects passed to
/// ``frame(_:)`` are drawn over the noise, and never copied.
struct CopiedNoiseScene {
    let width: Int
    let height: Int
    /// Standard deviation of the noise, in grey levels, around a grey of 110.
    var noiseSigma: Double
    /// The fraction of a frame's blocks copied from the last frame.
    var copiedFraction: Double
    static let blockSize = 16
    /// Where a frame's copied blocks come from, relative to where they go.
    static let copyOffsets = [(2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (-2, 2), (2, -2), (-2, -2)]
    private var lastNoise: [Double] = []
    private var generator: SeededGenerator

    init(width: Int, height: Int, noiseSigma: Double, copiedFraction: Double, seed: UInt64 = 1) {
        self.width = width
        self.height = height
        self.noiseSigma = noiseSigma
        self.copiedFraction = copiedFraction
        generator = SeededGenerator(seed: seed)
    }

    /// The next frame: its noise, then `objects` drawn over it in order.
    mutating func frame(_ objects: [SceneObject] = []) -> LumaImage {
        var noise = (0..<(width * height)).map { _ in 110 + noiseSigma * generator.nextGaussian() }
        if !lastNoise.isEmpty {
            let offset = Self.copyOffsets[Int.random(in: 0..<Self.copyOffsets.count, using: &generator)]
            for top in stride(from: 0, to: height, by: Self.blockSize) {
                for left in stride(from: 0, to: width, by: Self.blockSize)
                where Double.random(in: 0..<1, using: &generator) < copiedFraction {
                    copyBlock(left: left, top: top, from: offset, into: &noise)
                }
            }
        }
        lastNoise = noise
        DetectionScene.paint(objects, onto: &noise, width: width)
        return DetectionScene.image(of: noise, width: width)
    }

    /// Copies the block at (`left`, `top`) of the last frame's noise, read `offset` away.
    private func copyBlock(left: Int, top: Int, from offset: (x: Int, y: Int), into noise: inout [Double]) {
        for y in top..<min(top + Self.blockSize, height) {
            for x in left..<min(left + Self.blockSize, width) {
                let sourceX = x + offset.x, sourceY = y + offset.y
                guard sourceX >= 0, sourceY >= 0, sourceX < width, sourceY < height else { continue }
                noise[y * width + x] = lastNoise[sourceY * width + sourceX]
            }
        }
    }
}
