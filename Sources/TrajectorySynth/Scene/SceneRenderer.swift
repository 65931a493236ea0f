import TrajectoryEvaluation
import TrajectoryKit

/// Renders a `SceneScript` one frame at a time, and tells what really happened in it.
///
/// Frames are made on demand and in any order: memory stays flat (one canvas, one backdrop
/// raster, the caller's image), whatever the clip's length. The same script gives the same
/// bytes on every machine.
public struct SceneRenderer: Sendable {
    public let script: SceneScript
    /// The flights of the script's balls as a correct detector should report them.
    public let groundTruth: GroundTruth

    private let backdrop: [Float]
    private let backdropWidth: Int
    private var canvas: Canvas
    private let sensor: SensorStage
    private let actorsBehind: [any SceneActor]
    private let actorsInFront: [any SceneActor]

    /// Prepares the backdrop and sensor tables (tens of milliseconds for 720p).
    public init(script: SceneScript) {
        self.script = script
        let margin = Canvas.maximumCameraOffset + 2
        backdrop = script.backdrop.rasterize(width: script.width, height: script.height, margin: margin)
        backdropWidth = script.width + 2 * margin
        canvas = Canvas(width: script.width, height: script.height)
        sensor = SensorStage(sensor: script.sensor, seed: script.seed, width: script.width, height: script.height)
        actorsBehind = script.actors.filter { !$0.isInFrontOfBalls }
        actorsInFront = script.actors.filter { $0.isInFrontOfBalls }
        groundTruth = script.groundTruth()
    }

    /// A blank image of the clip's size, to pass to `render(frame:into:)` again and again.
    public func makeImage() -> LumaImage {
        LumaImage(width: script.width, height: script.height)
    }

    /// Renders frame `index` into `image`, reusing its storage.
    public mutating func render(frame index: Int, into image: inout LumaImage) {
        precondition(index >= 0 && index < script.frameCount, "frame \(index) is outside the clip")
        precondition(image.width == script.width && image.height == script.height, "image size differs from the scene's")
        let moment = script.moment(ofFrame: index)
        canvas.cameraOffset = script.camera.offset(at: moment.time)
        copyBackdrop()
        for actor in actorsBehind {
            actor.draw(on: &canvas, at: moment)
        }
        for ball in script.balls {
            ball.draw(on: &canvas, at: moment)
        }
        for actor in actorsInFront {
            actor.draw(on: &canvas, at: moment)
        }
        sensor.develop(canvas, frameIndex: index, into: &image.pixels)
    }

    /// Renders frame `index` into a new image.
    public mutating func render(frame index: Int) -> LumaImage {
        var image = makeImage()
        render(frame: index, into: &image)
        return image
    }

    /// Fills the canvas with the backdrop seen through the camera's offset: a bilinear
    /// sample, the same fractional weights for every pixel.
    private mutating func copyBackdrop() {
        let margin = Double(Canvas.maximumCameraOffset + 2)
        let source = SIMD2(margin, margin) - canvas.cameraOffset
        let whole = source.rounded(.down)
        let fraction = SIMD2<Float>(source - whole)
        let left = Int(whole.x)
        let top = Int(whole.y)
        let w00 = (1 - fraction.x) * (1 - fraction.y)
        let w10 = fraction.x * (1 - fraction.y)
        let w01 = (1 - fraction.x) * fraction.y
        let w11 = fraction.x * fraction.y
        let width = canvas.width
        let height = canvas.height
        let stride = backdropWidth
        backdrop.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutablePixels { pixels in
                for row in 0..<height {
                    let upper = (row + top) * stride + left
                    let lower = upper + stride
                    let out = row * width
                    if fraction == .zero {
                        // A whole-pixel shift (always so for a steady camera): a plain copy.
                        _ = UnsafeMutableBufferPointer(rebasing: pixels[out..<(out + width)])
                            .update(fromContentsOf: source[upper..<(upper + width)])
                        continue
                    }
                    for column in 0..<width {
                        pixels[out + column] =
                            w00 * source[upper + column] + w10 * source[upper + column + 1]
                            + w01 * source[lower + column] + w11 * source[lower + column + 1]
                    }
                }
            }
        }
    }
}
