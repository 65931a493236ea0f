import Testing
import TrajectoryDrawing
import TrajectoryKit

/// The drawing primitives, checked pixel by pixel on small pictures.
@Suite struct ShapeTests {
    static let white = ColourEncoding.standardDefinition.yuv(red: 255, green: 255, blue: 255)

    static func black(_ width: Int = 40, _ height: Int = 30) -> YUVPicture {
        YUVPicture(width: width, height: height)
    }

    static func isPainted(_ picture: YUVPicture, _ x: Int, _ y: Int) -> Bool {
        picture.colour(x: x, y: y).y == white.y
    }

    static func distance(_ x: Int, _ y: Int, toSegment a: PixelPoint, _ b: PixelPoint) -> Double {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let dx = b.x - a.x, dy = b.y - a.y
        let t = max(0, min(1, ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy)))
        let cx = a.x + t * dx - px, cy = a.y + t * dy - py
        return (cx * cx + cy * cy).squareRoot()
    }

    @Test("RGB to YUV and back stays within one level", arguments: [
        ColourEncoding(matrix: .bt601, fullRange: false), ColourEncoding(matrix: .bt601, fullRange: true),
        ColourEncoding(matrix: .bt709, fullRange: false), ColourEncoding(matrix: .bt709, fullRange: true),
    ])
    func colourRoundTrip(encoding: ColourEncoding) {
        for colour in [RGBColour(red: 255, green: 0, blue: 0), RGBColour(red: 0, green: 255, blue: 0),
                       RGBColour(red: 0, green: 64, blue: 255), RGBColour(red: 128, green: 128, blue: 128)] {
            let back = encoding.rgb(encoding.yuv(colour))
            // Limited range has fewer levels, so rounding can cost up to two.
            #expect(abs(Int(back.red) - Int(colour.red)) <= 2)
            #expect(abs(Int(back.green) - Int(colour.green)) <= 2)
            #expect(abs(Int(back.blue) - Int(colour.blue)) <= 2)
        }
        #expect(ColourEncoding(matrix: .bt601, fullRange: false).yuv(red: 0, green: 0, blue: 0) == YUVColour(y: 16, cb: 128, cr: 128))
    }

    @Test("a disc paints exactly the pixels whose centre lies within its radius")
    func disc() {
        var picture = Self.black()
        let centre = PixelPoint(x: 20.3, y: 14.8)
        picture.fillDisc(centre: centre, radius: 5, Self.white)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let dx = Double(x) + 0.5 - centre.x, dy = Double(y) + 0.5 - centre.y
                #expect(Self.isPainted(picture, x, y) == (dx * dx + dy * dy <= 25), "pixel \(x), \(y)")
            }
        }
    }

    @Test("a thick line covers the pixels within half its width of the segment and nothing beyond one more pixel")
    func line() {
        var picture = Self.black()
        let a = PixelPoint(x: 3, y: 4), b = PixelPoint(x: 35, y: 22)
        picture.strokeLine(from: a, to: b, width: 4, Self.white)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let distance = Self.distance(x, y, toSegment: a, b)
                if distance <= 1.5 { #expect(Self.isPainted(picture, x, y), "pixel \(x), \(y) on the line") }
                if distance > 3 { #expect(!Self.isPainted(picture, x, y), "pixel \(x), \(y) away from the line") }
            }
        }
    }

    @Test("segments far outside or through the picture are clipped, not walked", arguments: [
        (PixelPoint(x: -1e12, y: 5), PixelPoint(x: 1e12, y: 5)),
        (PixelPoint(x: 1e9, y: 1e9), PixelPoint(x: 2e9, y: 3e9)),
        (PixelPoint(x: .nan, y: 0), PixelPoint(x: 5, y: 5)),
    ])
    func clipping(from a: PixelPoint, to b: PixelPoint) {
        var picture = Self.black()
        picture.strokeLine(from: a, to: b, width: 2, Self.white)
        let painted = (0..<picture.height).flatMap { y in (0..<picture.width).map { x in Self.isPainted(picture, x, y) } }
        #expect(painted.filter { $0 }.count == (a.y == 5 && b.y == 5 ? 2 * picture.width : 0))
    }

    @Test("a rectangle's outline lies inside it and leaves its inside alone")
    func rectangle() {
        var picture = Self.black()
        picture.strokeRectangle(PixelRect(minX: 5, minY: 6, maxX: 25, maxY: 20), thickness: 2, Self.white)
        #expect(Self.isPainted(picture, 5, 6) && Self.isPainted(picture, 24, 19) && Self.isPainted(picture, 6, 12))
        #expect(!Self.isPainted(picture, 7, 8) && !Self.isPainted(picture, 22, 17))
        #expect(!Self.isPainted(picture, 4, 6) && !Self.isPainted(picture, 25, 19) && !Self.isPainted(picture, 10, 20))
    }

    @Test("chroma follows the painted pixel: red reads back as red")
    func chroma() {
        var picture = Self.black(8, 8)
        let red = picture.encoding.yuv(red: 255, green: 0, blue: 0)
        picture.paint(x: 3, y: 5, red)
        let back = picture.encoding.rgb(picture.colour(x: 3, y: 5))
        #expect(back.red > 250 && back.green < 5 && back.blue < 5)
        #expect(picture.colour(x: 0, y: 0) != red)
    }

    @Test("text draws each glyph's bits at the scale asked, and leaves a gap for unknown characters")
    func text() {
        var picture = Self.black(40, 20)
        picture.drawText("1?f", x: 2, y: 3, scale: 2, Self.white)
        let one = BitmapFont.glyph("1")!
        for (row, bits) in one.enumerated() {
            for column in 0..<BitmapFont.glyphWidth {
                let set = bits & (1 << (4 - column)) != 0
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        #expect(Self.isPainted(picture, 2 + 2 * column + dx, 3 + 2 * row + dy) == set)
                    }
                }
            }
        }
        let gap = (14...25).allSatisfy { x in (3..<17).allSatisfy { y in !Self.isPainted(picture, x, y) } }
        #expect(gap)
        #expect(Self.isPainted(picture, 26 + 2, 3 + 2 * 3))  // the bar of the "f"
        #expect(BitmapFont.size(of: "1?f", scale: 2) == (34, 14))
    }

    @Test("a steep parabola gets as many samples along its length as a flat one")
    func steepParabola() {
        var points: [PixelPoint] = []
        // Nearly vertical: x moves 4 pixels while y climbs and falls 150.
        ParabolaPath.sample(EquationCoefficients(a: -600, b: 30.3, c: 0), from: 0.02, to: 0.03, width: 400, height: 400, into: &points)
        let gaps = zip(points, points.dropFirst()).map { ((($1.x - $0.x) * ($1.x - $0.x) + ($1.y - $0.y) * ($1.y - $0.y))).squareRoot() }
        #expect(gaps.max()! < 3)
    }

    @Test("parabola samples lie on the curve, spread across its span")
    func parabolaSamples() {
        let coefficients = EquationCoefficients(a: -2, b: 2, c: 0.2)
        var points: [PixelPoint] = []
        ParabolaPath.sample(coefficients, from: 0.1, to: 0.9, width: 200, height: 100, into: &points)
        #expect(points.count >= 80)
        #expect(abs(points.first!.x - 20) < 1e-9 && abs(points.last!.x - 180) < 1e-9)
        for point in points {
            let normalized = point.normalized(width: 200, height: 100)
            #expect(abs(normalized.y - coefficients.evaluate(at: normalized.x)) < 1e-9)
        }
    }

    @Test("resizing keeps a usable picture of the new size")
    func resize() {
        var picture = YUVPicture(width: 6, height: 4)
        picture.resize(width: 5, height: 3)
        #expect(picture.luma.count == 15 && picture.cb.count == 6 && picture.chromaWidth == 3)
        picture.paint(x: 4, y: 2, Self.white)
        #expect(picture.colour(x: 4, y: 2) == Self.white)
    }
}
