/// The light falling on the sensor during one frame, before noise and quantisation:
/// one `Float` per pixel in grey levels (0 black … 255 white; brighter is allowed and clips
/// later). Actors paint on it in scene coordinates; the canvas adds the camera's offset.
///
/// Every primitive is anti-aliased by area coverage: a pixel half covered by a shape gets
/// half the shape's light, so edges and positions are honest to a fraction of a pixel.
public struct Canvas: Sendable {
    /// How far the camera may move the picture, in pixels, in each direction.
    public static let maximumCameraOffset = 14

    public let width: Int
    public let height: Int
    /// Row-major, `width` values per row.
    public internal(set) var pixels: [Float]
    /// Where the camera has moved the picture this frame: a scene point p shows at
    /// p + cameraOffset. Set by the renderer before actors paint.
    public internal(set) var cameraOffset: SIMD2<Double> = .zero

    /// Reused accumulators for motion-blurred balls (coverage and light per pixel).
    private var blurCoverage: [Float] = []
    private var blurLight: [Float] = []

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a canvas needs a positive size")
        self.width = width
        self.height = height
        pixels = [Float](repeating: 0, count: width * height)
        blurCoverage = [Float](repeating: 0, count: 128 * 128)
        blurLight = blurCoverage
    }

    /// Gives direct access to the pixels, for actors that sample their own textures.
    public mutating func withUnsafeMutablePixels<R>(
        _ body: (UnsafeMutableBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        try pixels.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// The whole-pixel columns or rows touched by the scene interval [low, high] once shifted
    /// by `offset`, clipped to 0..<limit (empty when outside).
    @inline(__always)
    static func pixelSpan(_ low: Double, _ high: Double, offset: Double, limit: Int) -> Range<Int> {
        let first = max(0, min(Double(limit), (low + offset).rounded(.down)))
        let last = max(0, min(Double(limit), (high + offset).rounded(.up)))
        return Int(first)..<max(Int(first), Int(last))
    }

    /// Paints a shape given by its scene-space bounding box and a function that says, for a
    /// pixel centre in scene coordinates, how much of that pixel the shape covers (0…1) and
    /// how bright the shape is there.
    @inline(__always)
    public mutating func paint(
        minX: Double, minY: Double, maxX: Double, maxY: Double, opacity: Float = 1,
        _ shade: (SIMD2<Double>) -> (coverage: Float, level: Float)
    ) {
        let columns = Self.pixelSpan(minX, maxX, offset: cameraOffset.x, limit: width)
        let rows = Self.pixelSpan(minY, maxY, offset: cameraOffset.y, limit: height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let offset = cameraOffset
        let stride = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in rows {
                let sceneY = Double(row) + 0.5 - offset.y
                for column in columns {
                    let (coverage, level) = shade(SIMD2(Double(column) + 0.5 - offset.x, sceneY))
                    let alpha = coverage * opacity
                    if alpha > 0 {
                        let index = row * stride + column
                        buffer[index] += (level - buffer[index]) * alpha
                    }
                }
            }
        }
    }

    /// A filled disc with a soft, area-weighted edge.
    public mutating func fillDisc(center: SIMD2<Double>, radius: Double, level: Float, opacity: Float = 1) {
        paint(
            minX: center.x - radius - 1, minY: center.y - radius - 1,
            maxX: center.x + radius + 1, maxY: center.y + radius + 1, opacity: opacity
        ) { point in
            let d = point - center
            return (Self.edgeCoverage(distance: (d * d).sum().squareRoot(), radius: radius), level)
        }
    }

    /// A thick line with round ends (a limb, a pole, an arm).
    public mutating func fillCapsule(
        from a: SIMD2<Double>, to b: SIMD2<Double>, radius: Double, level: Float, opacity: Float = 1
    ) {
        let axis = b - a
        let lengthSquared = max((axis * axis).sum(), 1e-12)
        paint(
            minX: min(a.x, b.x) - radius - 1, minY: min(a.y, b.y) - radius - 1,
            maxX: max(a.x, b.x) + radius + 1, maxY: max(a.y, b.y) + radius + 1, opacity: opacity
        ) { point in
            let along = max(0, min(1, ((point - a) * axis).sum() / lengthSquared))
            let d = point - (a + axis * along)
            return (Self.edgeCoverage(distance: (d * d).sum().squareRoot(), radius: radius), level)
        }
    }

    /// An axis-aligned rectangle; edge pixels get exactly the fraction of their area inside.
    public mutating func fillRect(
        minX: Double, minY: Double, maxX: Double, maxY: Double, level: Float, opacity: Float = 1
    ) {
        paint(minX: minX, minY: minY, maxX: maxX, maxY: maxY, opacity: opacity) { point in
            let overlapX = max(0, min(point.x + 0.5, maxX) - max(point.x - 0.5, minX))
            let overlapY = max(0, min(point.y + 0.5, maxY) - max(point.y - 0.5, minY))
            return (Float(min(1, overlapX) * min(1, overlapY)), level)
        }
    }

    /// Coverage of a pixel whose centre is `distance` from the centre of a round shape:
    /// a one-pixel linear ramp centred on the edge, which keeps the covered area equal to
    /// the shape's area and the edge where it should be.
    @inline(__always)
    static func edgeCoverage(distance: Double, radius: Double) -> Float {
        Float(max(0, min(1, radius + 0.5 - distance)))
    }

    /// Paints a ball integrated over the exposure: `sampleCount` positions of its centre
    /// (scene coordinates, evenly spread over the shutter interval) are each rendered as a
    /// shaded sphere and averaged, so a fast ball leaves a streak whose light and coverage
    /// are those of the real moving ball. A nil centre is a sample where the ball is absent.
    public mutating func paintBall(
        _ ball: BallAppearance, sampleCount: Int, center: (Int) -> SIMD2<Double>?
    ) {
        precondition(sampleCount > 0, "a ball needs at least one sample")
        let reach = ball.radius + 1
        var low = SIMD2(Double.infinity, .infinity)
        var high = -low
        for k in 0..<sampleCount {
            guard let c = center(k) else { continue }
            low = pointwiseMin(low, c)
            high = pointwiseMax(high, c)
        }
        let columns = Self.pixelSpan(low.x - reach, high.x + reach, offset: cameraOffset.x, limit: width)
        let rows = Self.pixelSpan(low.y - reach, high.y + reach, offset: cameraOffset.y, limit: height)
        guard low.x.isFinite, !columns.isEmpty, !rows.isEmpty else { return }
        let boxWidth = columns.count
        let boxCount = boxWidth * rows.count
        if blurCoverage.count < boxCount {
            // Grows rarely: only when a longer streak than any before appears.
            blurCoverage = [Float](repeating: 0, count: boxCount * 2)
            blurLight = blurCoverage
        }
        let shading = BallShading(ball)
        let offset = cameraOffset
        blurCoverage.withUnsafeMutableBufferPointer { coverage in
            blurLight.withUnsafeMutableBufferPointer { light in
                UnsafeMutableBufferPointer(rebasing: coverage[0..<boxCount]).update(repeating: 0)
                UnsafeMutableBufferPointer(rebasing: light[0..<boxCount]).update(repeating: 0)
                for k in 0..<sampleCount {
                    guard let sceneCenter = center(k) else { continue }
                    let c = sceneCenter + offset
                    let sampleColumns = Self.pixelSpan(c.x - reach, c.x + reach, offset: 0, limit: width)
                        .clamped(to: columns)
                    let sampleRows = Self.pixelSpan(c.y - reach, c.y + reach, offset: 0, limit: height)
                        .clamped(to: rows)
                    for row in sampleRows {
                        let dy = Double(row) + 0.5 - c.y
                        let base = (row - rows.lowerBound) * boxWidth - columns.lowerBound
                        for column in sampleColumns {
                            let dx = Double(column) + 0.5 - c.x
                            let (cover, level) = shading.shade(dx: dx, dy: dy)
                            coverage[base + column] += cover
                            light[base + column] += cover * level
                        }
                    }
                }
            }
        }
        let weight = 1 / Float(sampleCount)
        let stride = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            blurCoverage.withUnsafeBufferPointer { coverage in
                blurLight.withUnsafeBufferPointer { light in
                    for row in rows {
                        let base = (row - rows.lowerBound) * boxWidth - columns.lowerBound
                        for column in columns where coverage[base + column] > 0 {
                            let alpha = coverage[base + column] * weight
                            let index = row * stride + column
                            buffer[index] = buffer[index] * (1 - alpha) + light[base + column] * weight
                        }
                    }
                }
            }
        }
    }
}
