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
        let motion = differenced(current, earlier, cameraMotion: nil, layout: layout)
        var expected = [UInt8](repeating: Self.sentinel, count: layout.minimumByteCount)
        for (row, column) in pixels(of: layout) {
            let index = row * layout.bytesPerRow + column
            expected[index] = earlier.map { absoluteDifference(current[index], $0[index]) }.min()!
        }
        #expect(motion == expected)
    }

    /// Camera motions since the three earlier frames: sub-pixel, whole-pixel, one still, and a
    /// motion as large as some frames are narrow.
    static let cameraMotions: [(CameraMotion, CameraMotion, CameraMotion)] = [
        (CameraMotion(dx: 0.3, dy: -0.2), CameraMotion(dx: 1.55, dy: 0.8), CameraMotion(dx: -0.9, dy: 2.3)),
        (CameraMotion(dx: 1, dy: 0), CameraMotion(dx: 0, dy: -2), CameraMotion(dx: -0.49, dy: 0.13)),
        (.zero, CameraMotion(dx: 0.1, dy: 0.05), CameraMotion(dx: 7.6, dy: -3.4)),
    ]

    @Test("vector differencing with a moving camera equals the scalar reference, padding untouched",
          arguments: layouts, cameraMotions.indices)
    func movingCameraDifferencing(layout: PlaneLayout, motionsIndex: Int) {
        let motions = Self.cameraMotions[motionsIndex]
        var generator = SeededGenerator(seed: UInt64(layout.width * 31 + layout.height + motionsIndex))
        let current = randomPlane(layout, using: &generator)
        let earlier = (0..<3).map { _ in randomPlane(layout, using: &generator) }
        let motion = differenced(current, earlier, cameraMotion: motions, layout: layout)
        var expected = [UInt8](repeating: Self.sentinel, count: layout.minimumByteCount)
        for (row, column) in pixels(of: layout) {
            let index = row * layout.bytesPerRow + column
            let changes = zip(earlier, [motions.0, motions.1, motions.2]).map { frame, cameraMotion in
                referenceChange(
                    of: current[index], column: column, row: row, earlier: frame, cameraMotion: cameraMotion, layout: layout)
            }
            // A pixel whose place leaves any of the earlier frames is unknown: 0.
            expected[index] = changes.contains(nil) ? 0 : changes.map { $0! }.min()!
        }
        #expect(motion == expected)
    }

    /// The change of `value` at (`column`, `row`) from `earlier`, read where the camera's
    /// motion puts the same point of the scene, as the documentation defines it: the earlier
    /// frame blended there, to the nearest quarter of a pixel, from rounded-up means of its
    /// neighbours, and the difference less a quarter of the neighbours' range; nil when a
    /// neighbour lies outside the frame.
    private func referenceChange(
        of value: UInt8, column: Int, row: Int, earlier: [UInt8], cameraMotion: CameraMotion, layout: PlaneLayout
    ) -> UInt8? {
        func place(_ position: Double) -> (whole: Int, quarters: Int) {
            let whole = position.rounded(.down)
            let quarters = Int(((position - whole) * 4).rounded())
            return quarters == 4 ? (Int(whole) + 1, 0) : (Int(whole), quarters)
        }
        let x = place(Double(column) - cameraMotion.dx), y = place(Double(row) - cameraMotion.dy)
        let columns = x.quarters > 0 ? [x.whole, x.whole + 1] : [x.whole, x.whole]
        let rows = y.quarters > 0 ? [y.whole, y.whole + 1] : [y.whole, y.whole]
        guard (columns + rows).allSatisfy({ $0 >= 0 }), columns[1] < layout.width, rows[1] < layout.height else { return nil }
        func pixel(_ c: Int, _ r: Int) -> Int { Int(earlier[r * layout.bytesPerRow + c]) }
        func roundedMean(_ a: Int, _ b: Int) -> Int { (a + b + 1) / 2 }
        func blend(_ a: Int, _ b: Int, _ quarters: Int) -> Int {
            [a, roundedMean(a, roundedMean(a, b)), roundedMean(a, b), roundedMean(roundedMean(a, b), b)][quarters]
        }
        let neighbours = rows.flatMap { r in columns.map { c in pixel(c, r) } }
        let blended = blend(
            blend(neighbours[0], neighbours[1], x.quarters), blend(neighbours[2], neighbours[3], x.quarters), y.quarters)
        let allowance = (neighbours.max()! - neighbours.min()!) / 4
        return UInt8(max(0, abs(Int(value) - blended) - allowance))
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

    @Test(
        "vector shrinking by 2 and by 4 equals the scalar reference, the columns past the last whole vector included",
        arguments: [2, 4], layouts.filter { $0.height >= 4 } + [PlaneLayout(width: 84, height: 8, bytesPerRow: 90)])
    func shrinking(reduction: Int, layout: PlaneLayout) {
        var generator = SeededGenerator(seed: UInt64(layout.width * 13 + layout.height + reduction))
        let source = randomPlane(layout, using: &generator)
        let size = FrameShrinking.shrunkSize(width: layout.width, height: layout.height, by: reduction)
        let destinationLayout = PlaneLayout(width: size.width, height: size.height, bytesPerRow: size.width + 3)
        var shrunk = [UInt8](repeating: Self.sentinel, count: max(1, destinationLayout.minimumByteCount))
        do {
            var output = shrunk.mutableSpan
            FrameShrinking.shrink(
                source.span, layout: layout, by: reduction, into: &output, destinationBytesPerRow: destinationLayout.bytesPerRow)
        }
        #expect(shrunk == referenceShrinking(source, layout: layout, by: reduction, destinationLayout: destinationLayout))
    }

    /// By 2 the rounded mean of each 2 × 2 block; by 4, each column of a 4 × 4 block first
    /// averaged down pairwise, ⌊(⌊(a + b) / 2⌋ + ⌊(c + d) / 2⌋) / 2⌋, then the rounded mean of
    /// the four columns.
    private func referenceShrinking(
        _ source: [UInt8], layout: PlaneLayout, by reduction: Int, destinationLayout: PlaneLayout
    ) -> [UInt8] {
        func pixel(_ column: Int, _ row: Int) -> Int { Int(source[row * layout.bytesPerRow + column]) }
        var result = [UInt8](repeating: Self.sentinel, count: max(1, destinationLayout.minimumByteCount))
        for (row, column) in pixels(of: destinationLayout) {
            let x = reduction * column, y = reduction * row
            let value: Int
            if reduction == 2 {
                value = (pixel(x, y) + pixel(x + 1, y) + pixel(x, y + 1) + pixel(x + 1, y + 1) + 2) / 4
            } else {
                let columns = (0..<4).map { dx in
                    ((pixel(x + dx, y) + pixel(x + dx, y + 1)) / 2 + (pixel(x + dx, y + 2) + pixel(x + dx, y + 3)) / 2) / 2
                }
                value = (columns.reduce(0, +) + 2) / 4
            }
            result[row * destinationLayout.bytesPerRow + column] = UInt8(value)
        }
        return result
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

    /// The motion image of `current` against the three `earlier` planes, by the kernel for a
    /// still camera (`cameraMotion` nil) or for a moving one; the padding is left as `sentinel`.
    private func differenced(
        _ current: [UInt8], _ earlier: [[UInt8]],
        cameraMotion: (CameraMotion, CameraMotion, CameraMotion)?, layout: PlaneLayout
    ) -> [UInt8] {
        let (oneBefore, twoBefore, threeBefore) = (earlier[0], earlier[1], earlier[2])
        var motion = [UInt8](repeating: Self.sentinel, count: layout.minimumByteCount)
        var output = motion.mutableSpan
        if let cameraMotion {
            FrameDifferencing.minimumAbsoluteDifference(
                current: current.span, oneBefore: oneBefore.span, twoBefore: twoBefore.span, threeBefore: threeBefore.span,
                cameraMotion: cameraMotion, layout: layout, into: &output)
        } else {
            FrameDifferencing.minimumAbsoluteDifference(
                current: current.span, oneBefore: oneBefore.span, twoBefore: twoBefore.span, threeBefore: threeBefore.span,
                layout: layout, into: &output)
        }
        return motion
    }

    private func randomPlane(_ layout: PlaneLayout, using generator: inout SeededGenerator) -> [UInt8] {
        (0..<layout.minimumByteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func pixels(of layout: PlaneLayout) -> [(row: Int, column: Int)] {
        (0..<layout.height).flatMap { row in (0..<layout.width).map { (row, $0) } }
    }

    private func absoluteDifference(_ a: UInt8, _ b: UInt8) -> UInt8 { a > b ? a - b : b - a }
}
