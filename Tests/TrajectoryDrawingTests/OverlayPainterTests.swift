import Foundation
import Testing
import TrajectoryDrawing
import TrajectoryKit

/// What the painter draws for a trajectory on the frames of its life, from a history
/// recorded the way a run records it.
@Suite struct OverlayPainterTests {
    static let size = (width: 320, height: 240)
    static let frameRate = 30.0
    static let coefficients = EquationCoefficients(a: -3, b: 3, c: 0.1)
    static let uuid = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000000")!

    /// Fifteen points on the parabola, one per frame from frame 5; reported from its tenth point on.
    static func history() -> TrajectoryHistory {
        let points = (0..<15).map { step in
            let x = 0.2 + 0.04 * Double(step)
            return TrajectoryPoint(
                frame: 5 + step, time: Double(5 + step) / frameRate,
                location: NormalizedPoint(x: x, y: coefficients.evaluate(at: x)), radius: 0.01)
        }
        var history = TrajectoryHistory()
        for count in 10...15 {
            let seen = Array(points.prefix(count))
            let observation = TrajectoryObservation(
                uuid: uuid, timeRange: TimeRange(start: seen[0].time, duration: seen.last!.time - seen[0].time),
                detectedPoints: seen.suffix(10).map(\.location), projectedPoints: [],
                equationCoefficients: coefficients, confidence: 1, movingAverageRadius: 0.01, points: seen)
            history.record([observation], frame: FrameStamp(index: seen.last!.frame, time: seen.last!.time))
        }
        return history
    }

    static func stamp(_ frame: Int) -> FrameStamp { FrameStamp(index: frame, time: Double(frame) / frameRate) }

    static func painted(at frame: Int?, regionOfInterest: NormalizedRect = .full) -> YUVPicture {
        var painter = OverlayPainter(style: OverlayStyle(width: size.width, height: size.height), regionOfInterest: regionOfInterest)
        var picture = YUVPicture(width: size.width, height: size.height, fill: YUVColour(y: 128, cb: 128, cr: 128))
        if let frame {
            painter.drawLive(history(), at: stamp(frame), on: &picture)
        } else {
            painter.drawFinal(history(), on: &picture)
        }
        return picture
    }

    /// Whether a pixel within `radius` of `point` has the colour `isColour` recognises.
    static func found(_ isColour: (RGBColour) -> Bool, near point: NormalizedPoint, in picture: YUVPicture, radius: Int = 2) -> Bool {
        let pixel = point.pixels(width: picture.width, height: picture.height)
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= radius * radius {
                let x = Int(pixel.x) + dx, y = Int(pixel.y) + dy
                guard x >= 0, y >= 0, x < picture.width, y < picture.height else { continue }
                if isColour(picture.encoding.rgb(picture.colour(x: x, y: y))) { return true }
            }
        }
        return false
    }

    static func isRed(_ c: RGBColour) -> Bool { c.red > 200 && c.green < 60 && c.blue < 60 }
    static func isGreen(_ c: RGBColour) -> Bool { c.green > 200 && c.red < 60 && c.blue < 60 }

    static func location(_ step: Int) -> NormalizedPoint {
        let x = 0.2 + 0.04 * Double(step)
        return NormalizedPoint(x: x, y: coefficients.evaluate(at: x))
    }

    @Test("before the trajectory is reported, its points seen so far are drawn on their own frames, not the later ones")
    func beforeReport() {
        let picture = Self.painted(at: 9)  // the fifth point's frame; the report comes at frame 14
        for step in 0...4 { #expect(Self.found(Self.isRed, near: Self.location(step), in: picture)) }
        #expect(!Self.found(Self.isRed, near: Self.location(8), in: picture, radius: 3))
    }

    @Test("on its last frame every point is red and the fit is green between them")
    func lastFrame() {
        let picture = Self.painted(at: 19)
        for step in 0..<15 { #expect(Self.found(Self.isRed, near: Self.location(step), in: picture)) }
        // Half-way between the fitted points (the last ten), away from the dots.
        for step in 5..<14 {
            let x = 0.2 + 0.04 * (Double(step) + 0.5)
            #expect(Self.found(Self.isGreen, near: NormalizedPoint(x: x, y: Self.coefficients.evaluate(at: x)), in: picture))
        }
        // The fit spans only the points it was made from: none before the fifth.
        let early = 0.2 + 0.04 * 2.5
        #expect(!Self.found(Self.isGreen, near: NormalizedPoint(x: early, y: Self.coefficients.evaluate(at: early)), in: picture))
    }

    @Test("a trajectory stays for the hold time after its last point, then goes")
    func hold() {
        let background = YUVPicture(width: Self.size.width, height: Self.size.height, fill: YUVColour(y: 128, cb: 128, cr: 128))
        let held = Self.painted(at: 19 + 12)  // 0.4 s later
        #expect(Self.found(Self.isRed, near: Self.location(14), in: held))
        let gone = Self.painted(at: 19 + 18, regionOfInterest: NormalizedRect(x: 0.5, y: 0.5, width: 0.1, height: 0.1))  // 0.6 s later
        #expect(!Self.found(Self.isRed, near: Self.location(14), in: gone, radius: 4))
        let early = Self.painted(at: 4, regionOfInterest: NormalizedRect(x: 0.5, y: 0.5, width: 0.1, height: 0.1))
        #expect(early.luma.indices.filter { early.luma[$0] != background.luma[$0] }.count == gone.luma.indices.filter { gone.luma[$0] != background.luma[$0] }.count)
    }

    @Test("the region of interest is a blue frame on its bounds")
    func region() {
        let roi = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let picture = Self.painted(at: 0, regionOfInterest: roi)
        let bounds = roi.pixelBounds(width: Self.size.width, height: Self.size.height)
        let corner = picture.encoding.rgb(picture.colour(x: bounds.minX, y: bounds.minY))
        #expect(corner.blue > 200 && corner.red < 60)
        let inside = picture.encoding.rgb(picture.colour(x: bounds.minX + 10, y: bounds.minY + 10))
        #expect(inside.blue < 160)
    }

    @Test("the tag shows the uuid's first eight hex digits in white beside the latest point")
    func tag() {
        #expect(Self.history().tracks[0].tag == "0a1b2c3d")
        let picture = Self.painted(at: 19)
        let last = Self.location(14).pixels(width: Self.size.width, height: Self.size.height)
        let whites = (0..<picture.height).flatMap { y in (0..<picture.width).map { (x: $0, y: y) } }
            .filter { picture.colour(x: $0.x, y: $0.y).y > 230 }
        #expect(whites.count > 40)
        #expect(whites.allSatisfy { abs(Double($0.x) - last.x) < 80 && abs(Double($0.y) - last.y) < 40 })
    }

    @Test("the final drawing shows every point, and the fit along the whole flight, not only the last window")
    func final() {
        let picture = Self.painted(at: nil)
        for step in 0..<15 { #expect(Self.found(Self.isRed, near: Self.location(step), in: picture)) }
        // Between points, in the last fit's window (points 5–14) and before it.
        for between in [10.5, 1.5, 0.5] {
            let x = 0.2 + 0.04 * between
            #expect(Self.found(Self.isGreen, near: NormalizedPoint(x: x, y: Self.coefficients.evaluate(at: x)), in: picture))
        }
        // On the points themselves the green runs over the dots, which still show red around it.
        #expect(Self.found(Self.isGreen, near: Self.location(7), in: picture, radius: 1))
        #expect(Self.history().longestTrack?.points.count == 15)
        #expect(Self.history().tracks[0].fit(at: 3).frame == 14 && Self.history().tracks[0].fit(at: 17).frame == 17)
    }

    @Test("on the final drawing each stretch shows the fit reported when its later point came, not the last fit")
    func finalStretchesFollowTheirFits() {
        let early = EquationCoefficients(a: Self.coefficients.a, b: Self.coefficients.b, c: Self.coefficients.c + 0.1)
        let points = (0..<15).map { step in
            let x = 0.2 + 0.04 * Double(step)
            return TrajectoryPoint(
                frame: 5 + step, time: Double(5 + step) / Self.frameRate,
                location: NormalizedPoint(x: x, y: Self.coefficients.evaluate(at: x)), radius: 0.01)
        }
        // Reported on frame 14 with a fit 0.1 higher than the points, then on frame 19 with theirs.
        var history = TrajectoryHistory()
        for (count, fit) in [(10, early), (15, Self.coefficients)] {
            let seen = Array(points.prefix(count))
            history.record([TrajectoryObservation(
                uuid: Self.uuid, timeRange: TimeRange(start: seen[0].time, duration: seen.last!.time - seen[0].time),
                detectedPoints: seen.suffix(10).map(\.location), projectedPoints: [], equationCoefficients: fit,
                confidence: 1, movingAverageRadius: 0.01, points: seen)], frame: FrameStamp(index: seen.last!.frame, time: seen.last!.time))
        }
        var painter = OverlayPainter(style: OverlayStyle(width: Self.size.width, height: Self.size.height), regionOfInterest: .full)
        var picture = YUVPicture(width: Self.size.width, height: Self.size.height, fill: YUVColour(y: 128, cb: 128, cr: 128))
        painter.drawFinal(history, on: &picture)

        func on(_ fit: EquationCoefficients, between step: Double) -> NormalizedPoint {
            let x = 0.2 + 0.04 * step
            return NormalizedPoint(x: x, y: fit.evaluate(at: x))
        }
        // Points 1–2 came before frame 19: the early fit, and no green on the last one there.
        #expect(Self.found(Self.isGreen, near: on(early, between: 1.5), in: picture))
        #expect(!Self.found(Self.isGreen, near: on(Self.coefficients, between: 1.5), in: picture))
        // Point 14 came on frame 19: the last fit.
        #expect(Self.found(Self.isGreen, near: on(Self.coefficients, between: 13.5), in: picture))
        #expect(!Self.found(Self.isGreen, near: on(early, between: 13.5), in: picture))
    }
}
