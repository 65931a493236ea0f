import TrajectoryEvaluation

/// A bush or tree crown moving in the wind: every patch of leaves jitters by a pixel or
/// two, smoothly and independently, with gusts that move the whole crown. Lots of small
/// changes between frames, none of them a ball.
public struct Foliage: SceneActor {
    /// Top-left corner of the crown's box in scene pixels.
    public var origin: SIMD2<Double>
    /// Typical leaf displacement in pixels.
    public var windStrength: Double
    /// Scene y where the trunk meets the ground.
    public var trunkBase: Double
    private let leaves: Texture
    private let key: UInt64
    /// Side of the square patches that move together, pixels.
    private let patch = 10.0

    /// A crown of `size` pixels filled with leaves drawn from `seed`.
    public init(origin: SIMD2<Double>, size: SIMD2<Int>, windStrength: Double, trunkBase: Double, seed: UInt64) {
        self.origin = origin
        self.windStrength = windStrength
        self.trunkBase = trunkBase
        key = seed
        var random = SeededGenerator(seed: seed)
        var texture = Texture(width: size.x, height: size.y)
        let w = Double(size.x)
        let h = Double(size.y)
        // The crown: a few overlapping lobes; leaves are scattered inside them.
        let lobes = (0..<5).map { _ in
            (SIMD2(random.uniform(0.3...0.7) * w, random.uniform(0.35...0.65) * h),
             SIMD2(random.uniform(0.22...0.32) * w, random.uniform(0.22...0.32) * h))
        }
        let leafCount = Int(w * h / 14)
        for _ in 0..<leafCount {
            let (centre, radii) = random.element(of: lobes)
            let angle = random.uniform(0...6.283)
            let distance = random.nextUnit().squareRoot()
            let spot = centre + distance * radii * SIMD2(PortableMath.cos(angle), PortableMath.sin(angle))
            let size = SIMD2(random.uniform(1.5...4.5), random.uniform(1.2...3.5))
            texture.fillEllipse(center: spot, radii: size, level: Float(random.uniform(25...115)))
        }
        leaves = texture
    }

    /// Displacement at `time` of the leaves in patch (column, row): its own flutter plus a
    /// gust shared by the whole crown.
    private func displacement(column: Int, row: Int, time: Double) -> SIMD2<Double> {
        let cell = Hashing.hash(key, row * 4096 + column)
        let flutter = SIMD2(
            SmoothRandomCurve(key: cell).value(at: time * 6),
            SmoothRandomCurve(key: cell ^ 0xF00D).value(at: time * 6))
        let gust = SmoothRandomCurve(key: key ^ 0x6057).value(at: time * 1.5)
        return windStrength * (flutter + SIMD2(1.5 * gust, 0.3 * gust))
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        let size = SIMD2(Double(leaves.width), Double(leaves.height))
        let trunkTop = origin + SIMD2(size.x * 0.5, size.y * 0.6)
        canvas.fillCapsule(from: trunkTop, to: SIMD2(trunkTop.x, trunkBase), radius: size.x * 0.04, level: 45)
        // Patch by patch: each moves as one, so its displacement is worked out once.
        let columns = Int((size.x / patch).rounded(.up))
        let rows = Int((size.y / patch).rounded(.up))
        for row in 0..<rows {
            for column in 0..<columns {
                let d = displacement(column: column, row: row, time: moment.time)
                let left = origin.x + Double(column) * patch
                let top = origin.y + Double(row) * patch
                // Whole-pixel patch edges (in the shown image) so patches tile without seams.
                let shownLeft = (left + canvas.cameraOffset.x).rounded() - canvas.cameraOffset.x
                let shownTop = (top + canvas.cameraOffset.y).rounded() - canvas.cameraOffset.y
                canvas.paint(
                    minX: shownLeft + 0.5, minY: shownTop + 0.5, maxX: shownLeft + patch - 0.5,
                    maxY: shownTop + patch - 0.5
                ) { p in
                    leaves.sample(u: p.x - origin.x + d.x, v: p.y - origin.y + d.y, wrapX: false)
                }
            }
        }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        .onScreenThroughout("foliage", frameCount: frameCount)
    }
}

/// Spectators in a stand: rows of small heads and shoulders whose brightness keeps changing
/// as people shift, wave and turn; here and there one moves a few pixels.
public struct Crowd: SceneActor {
    public var region: PixelBox
    private let people: [Spectator]
    private let key: UInt64

    struct Spectator: Sendable {
        var position: SIMD2<Double>
        var headRadius: Double
        var headLevel: Float
        var shirtLevel: Float
        /// How much this person fidgets, 0…1.
        var restlessness: Double
    }

    public init(region: PixelBox, seed: UInt64) {
        self.region = region
        key = seed
        var random = SeededGenerator(seed: seed)
        let spacing = random.uniform(13...17)
        let rows = max(1, Int(region.height / spacing))
        var people: [Spectator] = []
        for row in 0..<rows {
            // Rows further up are further away: slightly smaller.
            let scale = 0.8 + 0.2 * Double(row + 1) / Double(rows)
            let y = region.minY + (Double(row) + 0.6) * spacing
            var x = region.minX + random.uniform(0...spacing)
            while x < region.maxX {
                if random.chance(0.85) {
                    people.append(Spectator(
                        position: SIMD2(x + random.uniform(-2...2), y + random.uniform(-1.5...1.5)),
                        headRadius: random.uniform(3...4.5) * scale, headLevel: Float(random.uniform(70...190)),
                        shirtLevel: Float(random.uniform(20...240)), restlessness: random.uniform(0.2...1)))
                }
                x += spacing * random.uniform(0.8...1.2)
            }
        }
        self.people = people
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        canvas.fillRect(minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY, level: 55)
        for (index, person) in people.enumerated() {
            let personKey = Hashing.hash(key, index)
            let t = moment.time * 3
            let sway = person.restlessness * 1.5 * SIMD2(
                SmoothRandomCurve(key: personKey).value(at: t),
                0.5 * SmoothRandomCurve(key: personKey ^ 1).value(at: t))
            let flicker = Float(person.restlessness * 35 * SmoothRandomCurve(key: personKey ^ 2).value(at: t * 1.7))
            let head = person.position + sway
            let r = person.headRadius
            canvas.fillCapsule(
                from: head + SIMD2(0, r * 2.2), to: head + SIMD2(0, r * 3.2), radius: r * 1.5,
                level: max(0, person.shirtLevel + flicker))
            canvas.fillDisc(center: head, radius: r, level: max(0, person.headLevel + flicker * 0.6))
        }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        .onScreenThroughout("crowd", frameCount: frameCount)
    }
}

/// An LED advertising board whose lettering scrolls sideways: a strip of moving,
/// high-contrast edges.
public struct ScrollingBanner: SceneActor {
    public var region: PixelBox
    /// Pixels per second; positive scrolls the content to the left.
    public var speed: Double
    private let content: Texture

    public init(region: PixelBox, speed: Double, seed: UInt64) {
        self.region = region
        self.speed = speed
        var random = SeededGenerator(seed: seed)
        let height = max(8, Int(region.height.rounded()))
        let width = max(64, Int((region.width * 1.5).rounded()))
        let background = Float(random.uniform(20...60))
        var texture = Texture(width: width, height: height, level: background, coverage: 1)
        // Blocky lettering: words of 5×7 random glyphs with a cell size set by the height.
        let cell = max(1, height / 10)
        let glyphTop = (height - 7 * cell) / 2
        var x = cell * 2
        while x + 6 * cell < width {
            let wordLength = random.integer(in: 3...8)
            let ink = Float(random.uniform(170...250))
            for _ in 0..<wordLength where x + 6 * cell < width {
                for row in 0..<7 {
                    for column in 0..<5 where random.chance(0.55) {
                        let left = x + column * cell
                        let top = glyphTop + row * cell
                        texture.fillRect(columns: left..<(left + cell), rows: top..<(top + cell), level: ink)
                    }
                }
                x += 6 * cell
            }
            x += random.integer(in: 3...6) * cell
        }
        content = texture
    }

    public func draw(on canvas: inout Canvas, at moment: FrameMoment) {
        let shift = speed * moment.time
        canvas.fillRect(
            minX: region.minX - 3, minY: region.minY - 3, maxX: region.maxX + 3, maxY: region.maxY + 3, level: 15)
        canvas.paint(minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY) { p in
            let inside = Float(max(0, min(1, p.x + 0.5 - region.minX)) * max(0, min(1, region.maxX - p.x + 0.5))
                * max(0, min(1, p.y + 0.5 - region.minY)) * max(0, min(1, region.maxY - p.y + 0.5)))
            let (_, level) = content.sample(u: p.x - region.minX + shift, v: p.y - region.minY, wrapX: true)
            return (inside, level)
        }
    }

    public func distractor(frameCount: Int, frameRate: Double) -> GroundTruth.Distractor? {
        .onScreenThroughout("banner", frameCount: frameCount)
    }
}

/// A rectangle in scene pixels (top-left origin), with fractional edges.
public struct PixelBox: Sendable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        precondition(maxX > minX && maxY > minY, "a box needs a positive size")
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
}
