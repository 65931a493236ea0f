/// How a ball looks: its size, its brightness and how it is lit.
public struct BallAppearance: Sendable, Hashable {
    /// Radius in pixels.
    public var radius: Double
    /// Grey level of the ball's surface where the light falls on it square.
    public var albedo: Float
    /// Fraction of the light that reaches every point of the ball (sky light), 0…1.
    public var ambient: Float
    /// Direction towards the light in image axes: x right, y down, z towards the camera.
    /// Normalised on use. (0, 0, 1) lights the ball from the camera: symmetric shading,
    /// so its intensity centroid is its centre. A tilted light makes one side brighter and
    /// moves the centroid towards it, as on a real sunlit ball.
    public var light: SIMD3<Double>
    /// Strength of the specular highlight, grey levels (0 for a matte ball).
    public var highlight: Float

    public init(
        radius: Double, albedo: Float, ambient: Float = 0.45,
        light: SIMD3<Double> = SIMD3(0, 0, 1), highlight: Float = 0
    ) {
        precondition(radius > 0, "a ball needs a positive radius")
        self.radius = radius
        self.albedo = albedo
        self.ambient = ambient
        self.light = light
        self.highlight = highlight
    }
}

/// A ball's appearance prepared for per-pixel shading (normalised light, half vector).
struct BallShading {
    let radius: Double
    let inverseRadius: Double
    let light: SIMD3<Double>
    let halfVector: SIMD3<Double>
    let albedo: Float
    let ambient: Float
    let highlight: Float

    init(_ ball: BallAppearance) {
        radius = ball.radius
        inverseRadius = 1 / ball.radius
        light = Self.normalized(ball.light)
        halfVector = Self.normalized(light + SIMD3(0, 0, 1))
        albedo = ball.albedo
        ambient = ball.ambient
        highlight = ball.highlight
    }

    private static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let length = (v * v).sum().squareRoot()
        return length > 0 ? v / length : SIMD3(0, 0, 1)
    }

    /// Coverage and brightness of the pixel whose centre is (dx, dy) from the ball's centre.
    @inline(__always)
    func shade(dx: Double, dy: Double) -> (coverage: Float, level: Float) {
        let distanceSquared = dx * dx + dy * dy
        let edge = radius + 0.5
        guard distanceSquared < edge * edge else { return (0, 0) }
        let distance = distanceSquared.squareRoot()
        let coverage = Canvas.edgeCoverage(distance: distance, radius: radius)
        // Surface normal of the sphere under the pixel centre (clamped to the rim outside).
        let scale = distance > radius ? 1 / distance : inverseRadius
        let nx = dx * scale
        let ny = dy * scale
        let nz = max(0, 1 - nx * nx - ny * ny).squareRoot()
        let lambert = max(0, nx * light.x + ny * light.y + nz * light.z)
        var level = albedo * (ambient + (1 - ambient) * Float(lambert))
        if highlight > 0 {
            var specular = max(0, nx * halfVector.x + ny * halfVector.y + nz * halfVector.z)
            for _ in 0..<5 { specular *= specular }  // cosine to the 32nd power
            level += highlight * Float(specular)
        }
        return (coverage, level)
    }
}
