import Testing

@testable import TrajectoryKit

/// A comparison traces the part of the difference that holds the seed, and gives up on it
/// ("spills") when it reaches the window's edge or grows past the largest part an object the
/// seed belongs to can be: then it is joined to something larger, and tracing it to the end
/// would only cost time.
@Suite struct ComparisonWindowTests {
    static let layout = PlaneLayout(width: 100, height: 100, bytesPerRow: 100)

    /// A still grey frame, and the same with a bright 11 × 11 square (121 pixels) in the middle.
    static let earlier = [UInt8](repeating: 100, count: 100 * 100)
    static let current: [UInt8] = {
        var pixels = earlier
        for y in 45..<56 { for x in 45..<56 { pixels[y * 100 + x] = 200 } }
        return pixels
    }()

    /// The same frame with a bright bar, 5 rows high, from column 20 to 79: wider than the window.
    static let currentWithBar: [UInt8] = {
        var pixels = earlier
        for y in 48..<53 { for x in 20..<80 { pixels[y * 100 + x] = 200 } }
        return pixels
    }()

    /// Compares the frames over a 40 × 40 window around the square, seeded with its centre row.
    static func compare(largestPart: Int, current: [UInt8] = current) -> ComparisonWindow.Comparison {
        var window = ComparisonWindow()
        window.start(
            rect: PixelRect(minX: 30, minY: 30, maxX: 70, maxY: 70), frameWidth: 100, frameHeight: 100,
            largestPart: largestPart)
        window.addSeedRun(row: 50, columns: 45..<56, motion: current.span, layout: layout)
        return window.compare(
            current: current.span, earlier: earlier.span, sampling: EarlierFrameSampling(.zero), layout: layout, low: 20)
    }

    @Test("a part inside the window and no larger than the largest part is the whole square")
    func wholePart() throws {
        guard case .part(let part) = Self.compare(largestPart: 121) else {
            Issue.record("the square, 121 pixels, should be one part")
            return
        }
        #expect(part.area == 121)
        #expect(part.bounds == PixelRect(minX: 45, minY: 45, maxX: 56, maxY: 56))
    }

    @Test("a part that grows past the largest part spills, though it stays inside the window")
    func spillsByArea() {
        guard case .spills = Self.compare(largestPart: 120) else {
            Issue.record("a 121-pixel part must spill when the largest part is 120")
            return
        }
    }

    @Test("a part that reaches the window's edge spills, however large the largest part")
    func spillsAtEdge() {
        guard case .spills = Self.compare(largestPart: 10_000, current: Self.currentWithBar) else {
            Issue.record("a bar crossing the window must spill")
            return
        }
    }
}
