import Testing
import TrajectoryKit

/// The vector kernels against plain per-pixel code written from their definitions.
@Suite struct DetectionKernelTests {
    /// Frame shapes around the 16-byte vector width: narrower than one vector, exact
    /// multiples, ragged widths, and padded rows.
    static let layouts: [PlaneLayout] = [
        PlaneLayout(width: 1, height: 1, bytesPerRow: 1),
        PlaneLayout(width: 7, height: 3, bytesPerRow: 9),
        PlaneLayout(width: 15, height: 4, bytesPerRow: 15),
        PlaneLayout(width: 16, height: 5, bytesPerRow: 16),
        PlaneLayout(width: 17, height: 4, bytesPerRow: 32),
        PlaneLayout(width: 37, height: 11, bytesPerRow: 48),
        PlaneLayout(width: 64, height: 6, bytesPerRow: 80),
        PlaneLayout(width: 100, height: 13, bytesPerRow: 100),
        PlaneLayout(width: 333, height: 7, bytesPerRow: 352),
    ]

    /// Bytes no kernel may write: they stand in the row padding of every output.
    static let sentinel: UInt8 = 0xA5

    @Test("vector differencing equals the scalar reference, padding untouched", arguments: layouts)
    func differencing(layout: PlaneLayout) {
        var generator = SeededGenerator(seed: UInt64(layout.width * 1000 + layout.height))
        let current = randomPlane(layout, using: &generator)
        let earlier = (0..<3).map { _ in randomPlane(layout, using: &generator) }
        let (oneBefore, twoBefore, threeBefore) = (earlier[0], earlier[1], earlier[2])
        var motion = [UInt8](repeating: Self.sentinel, count: layout.minimumByteCount)
        do {
            var output = motion.mutableSpan
            FrameDifferencing.minimumAbsoluteDifference(
                current: current.span, oneBefore: oneBefore.span, twoBefore: twoBefore.span,
                threeBefore: threeBefore.span, layout: layout, into: &output)
        }
        var expected = [UInt8](repeating: Self.sentinel, count: layout.minimumByteCount)
        for (row, column) in pixels(of: layout) {
            let index = row * layout.bytesPerRow + column
            expected[index] = earlier.map { absoluteDifference(current[index], $0[index]) }.min()!
        }
        #expect(motion == expected)
    }

    @Test("vector smoothing equals the scalar reference, padding untouched", arguments: layouts)
    func smoothing(layout: PlaneLayout) {
        var generator = SeededGenerator(seed: UInt64(layout.width * 7 + layout.height))
        let source = randomPlane(layout, using: &generator)
        // The destination's rows are laid out differently from the source's on purpose.
        let destinationLayout = PlaneLayout(width: layout.width, height: layout.height, bytesPerRow: layout.width + 5)
        var smoothed = [UInt8](repeating: Self.sentinel, count: destinationLayout.minimumByteCount)
        var smoother = BinomialSmoother()
        do {
            var output = smoothed.mutableSpan
            smoother.smooth(source.span, layout: layout, into: &output, destinationBytesPerRow: destinationLayout.bytesPerRow)
        }
        #expect(smoothed == referenceSmoothing(source, layout: layout, destinationLayout: destinationLayout))
    }

    /// 1-2-1 down, then 1-2-1 across, each as ⌊(⌊(a + c) / 2⌋ + b) / 2⌋, edges repeated.
    private func referenceSmoothing(_ source: [UInt8], layout: PlaneLayout, destinationLayout: PlaneLayout) -> [UInt8] {
        func pixel(_ column: Int, _ row: Int) -> Int {
            let x = min(max(column, 0), layout.width - 1), y = min(max(row, 0), layout.height - 1)
            return Int(source[y * layout.bytesPerRow + x])
        }
        func blend(_ a: Int, _ centre: Int, _ c: Int) -> Int { ((a + c) / 2 + centre) / 2 }
        func down(_ column: Int, _ row: Int) -> Int {
            blend(pixel(column, row - 1), pixel(column, row), pixel(column, row + 1))
        }
        var result = [UInt8](repeating: Self.sentinel, count: destinationLayout.minimumByteCount)
        for (row, column) in pixels(of: layout) {
            let value = blend(down(column - 1, row), down(column, row), down(column + 1, row))
            result[row * destinationLayout.bytesPerRow + column] = UInt8(value)
        }
        return result
    }

    private func randomPlane(_ layout: PlaneLayout, using generator: inout SeededGenerator) -> [UInt8] {
        (0..<layout.minimumByteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func pixels(of layout: PlaneLayout) -> [(row: Int, column: Int)] {
        (0..<layout.height).flatMap { row in (0..<layout.width).map { (row, $0) } }
    }

    private func absoluteDifference(_ a: UInt8, _ b: UInt8) -> UInt8 { a > b ? a - b : b - a }
}
