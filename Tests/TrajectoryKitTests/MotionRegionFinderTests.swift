import Testing

@testable import TrajectoryKit

/// The region finder's row scan (vector blocks skipped, runs summed in integers, runs joined)
/// against a plain flood fill written from its definition: pixels whose change reaches `low`,
/// joined with their eight neighbours, kept when one reaches `high`, in the order of their first
/// pixel in raster order, with every moment summed pixel by pixel.
@Suite struct MotionRegionFinderTests {
    /// Ragged widths around the 64-pixel block and the 16-pixel vector, and padded rows.
    static let layouts: [PlaneLayout] = [
        PlaneLayout(width: 9, height: 5, bytesPerRow: 9),
        PlaneLayout(width: 63, height: 17, bytesPerRow: 64),
        PlaneLayout(width: 203, height: 61, bytesPerRow: 224),
    ]
    /// Thresholds (low, high): the least possible, typical ones, and a low one near the top.
    static let thresholds: [(UInt8, UInt8)] = [(1, 3), (14, 40), (200, 250)]

    @Test("regions equal a pixel-by-pixel flood fill: same pixels, peaks, bounds and moments to the bit",
          arguments: layouts.indices, thresholds.indices)
    func regionsMatchFloodFill(layoutIndex: Int, thresholdIndex: Int) {
        let layout = Self.layouts[layoutIndex]
        let (low, high) = Self.thresholds[thresholdIndex]
        var generator = SeededGenerator(seed: UInt64(layoutIndex * 10 + thresholdIndex + 1))
        let motion = sparseMotion(layout, low: low, using: &generator)

        var finder = MotionRegionFinder()
        finder.findRegions(in: motion.span, layout: layout, thresholds: MotionThresholds(noiseSigma: 1, low: low, high: high))
        let expected = floodFilledRegions(motion, layout: layout, low: low, high: high)

        #expect(!expected.isEmpty, "the plane should hold regions to compare")
        #expect(finder.regions.count == expected.count)
        for (found, reference) in zip(finder.regions, expected) {
            #expect(found.bounds == reference.bounds)
            #expect(found.peak == reference.peak)
            #expect(sums(found.shape) == sums(reference.shape))
            #expect(sums(found.change) == sums(reference.change))
        }
    }

    /// A plane of still pixels (changes below `low`) with moving blobs, streaks and lone pixels
    /// scattered over it, some reaching the last column, and junk in the row padding.
    private func sparseMotion(_ layout: PlaneLayout, low: UInt8, using generator: inout SeededGenerator) -> [UInt8] {
        var plane = (0..<layout.minimumByteCount).map { _ in UInt8.random(in: 0..<low, using: &generator) }
        for row in 0..<layout.height {
            for column in layout.width..<layout.bytesPerRow where row * layout.bytesPerRow + column < plane.count {
                plane[row * layout.bytesPerRow + column] = 255  // padding: never part of a region
            }
        }
        let blobs = max(2, layout.width * layout.height / 150)
        for blob in 0..<blobs {
            // Every third blob changes by exactly `low`, the least that counts as moving.
            let faint = blob % 3 == 0
            let moving = { (generator: inout SeededGenerator) in faint ? low : UInt8.random(in: low...255, using: &generator) }
            let width = Int.random(in: 1...min(12, layout.width), using: &generator)
            let height = Int.random(in: 1...min(5, layout.height), using: &generator)
            let minX = Int.random(in: 0...(layout.width - width), using: &generator)
            let minY = Int.random(in: 0...(layout.height - height), using: &generator)
            for row in minY..<(minY + height) {
                for column in minX..<(minX + width) where Bool.random(using: &generator) || width < 3 {
                    plane[row * layout.bytesPerRow + column] = moving(&generator)
                }
            }
        }
        // A blob against the right edge, where the last vector overlaps the one before it.
        for row in 0..<min(3, layout.height) { plane[row * layout.bytesPerRow + layout.width - 1] = 255 }
        return plane
    }

    private func floodFilledRegions(_ motion: [UInt8], layout: PlaneLayout, low: UInt8, high: UInt8) -> [RegionMoments] {
        var visited = [Bool](repeating: false, count: layout.width * layout.height)
        var regions: [RegionMoments] = []
        func change(_ column: Int, _ row: Int) -> UInt8 { motion[row * layout.bytesPerRow + column] }
        for row in 0..<layout.height {
            for column in 0..<layout.width where !visited[row * layout.width + column] && change(column, row) >= low {
                var region = RegionMoments(column: column, row: row, change: change(column, row))
                visited[row * layout.width + column] = true
                var pending = [(column, row)]
                while let (x, y) = pending.popLast() {
                    for neighbourY in max(y - 1, 0)...min(y + 1, layout.height - 1) {
                        for neighbourX in max(x - 1, 0)...min(x + 1, layout.width - 1)
                        where !visited[neighbourY * layout.width + neighbourX] && change(neighbourX, neighbourY) >= low {
                            visited[neighbourY * layout.width + neighbourX] = true
                            region.add(column: neighbourX, row: neighbourY, change: change(neighbourX, neighbourY))
                            pending.append((neighbourX, neighbourY))
                        }
                    }
                }
                if region.peak >= high { regions.append(region) }
            }
        }
        return regions
    }

    private func sums(_ moments: MomentSums) -> [Double] {
        [moments.weight, moments.sumX, moments.sumY, moments.sumXX, moments.sumYY, moments.sumXY]
    }
}
