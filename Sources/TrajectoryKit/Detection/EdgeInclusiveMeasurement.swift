/// Measures a small region again over a window around it, soft edge included.
///
/// The thresholds trim a region's soft edge, where the change falls off over a pixel or two,
/// and that shrinks small or faint blobs: in strong noise a ball of radius 2.5 px and 25 grey
/// levels of contrast keeps only its core above the low threshold, and its radius would come
/// out at about half. Here every pixel of a window a little larger than the region counts,
/// less the mean change of still pixels, so that noise adds nothing on average and the edge
/// counts in full. Large regions lose only a thin rim to the thresholds, relatively little,
/// so they are not measured again.
///
/// The centre is found with each pixel's change capped at half the region's mean change. A
/// ball's change is its contrast against the background behind it, so on a textured
/// background the change varies across the ball, and across a long motion-blur streak that
/// would pull the centroid towards the stronger end. Capped, the inside of the object weighs
/// evenly while the partly covered edge pixels still place it to a fraction of a pixel.
struct EdgeInclusiveMeasurement {
    /// How far, in pixels, the window reaches beyond the region's bounding box: the soft
    /// edge of a smoothed, anti-aliased object is about that wide.
    static let margin = 2
    /// Regions of more pixels than this are measured as thresholded.
    static let largestMeasuredArea = 4096

    /// Change-weighted centre, with each change capped.
    let center: PixelPoint
    /// Change-weighted covariance of positions, uncapped (capping would flatten the profile
    /// across a streak and overstate its width).
    let spread: Covariance2D

    /// Measures `region` over its window of `motion`, or returns nil when the region is too
    /// large to need it or the window's change does not stand clear of the noise.
    ///
    /// - Parameter noiseLevel: mean change of a still pixel, subtracted from every pixel.
    init?(region: RegionMoments, motion: Span<UInt8>, layout: PlaneLayout, noiseLevel: Double) {
        guard region.area <= Self.largestMeasuredArea else { return nil }
        let frame = PixelRect(minX: 0, minY: 0, maxX: layout.width, maxY: layout.height)
        let window = Self.window(around: region.bounds, within: frame)
        let cap = region.change.weight / Double(region.area) / 2
        var sums = Sums(origin: region.change.mean, regionWeight: region.change.weight)
        for row in window.minY..<window.maxY {
            let rowStart = row * layout.bytesPerRow
            for column in window.minX..<window.maxX {
                let change = Double(motion[rowStart + column])
                sums.add(column: column, row: row, weight: change - noiseLevel, cappedWeight: min(change, cap) - noiseLevel)
            }
        }
        self.init(sums)
    }

    /// The measurement from the sums of a region's window, or nil when noise outweighs the
    /// region's edge (then the thresholded measurement should stand).
    init?(_ sums: Sums) {
        guard sums.full.weight > sums.regionWeight / 2, sums.capped.weight > 0 else { return nil }
        let spread = sums.full.covariance
        guard spread.principalVariances.minor > 0 else { return nil }
        self.spread = spread
        let offset = sums.capped.mean
        center = PixelPoint(x: sums.origin.x + offset.x, y: sums.origin.y + offset.y)
    }

    /// The pixels a region with these bounds is measured over: the bounds grown by `margin`,
    /// clipped to `limits`.
    static func window(around bounds: PixelRect, within limits: PixelRect) -> PixelRect {
        PixelRect(
            minX: max(limits.minX, bounds.minX - margin), minY: max(limits.minY, bounds.minY - margin),
            maxX: min(limits.maxX, bounds.maxX + margin), maxY: min(limits.maxY, bounds.maxY + margin))
    }

    /// The weighted sums over one region's window: each pixel's weight in full, for the
    /// spread, and capped, for the centre. A still pixel must weigh nothing on average.
    struct Sums {
        /// Positions are taken relative to this point, near the region's centre, which keeps
        /// the sums small and exact.
        let origin: PixelPoint
        /// The thresholded region's own total weight, of which the window's must reach half.
        var regionWeight: Double
        private(set) var full = MomentSums()
        private(set) var capped = MomentSums()

        init(origin: PixelPoint, regionWeight: Double = 0) {
            self.origin = origin
            self.regionWeight = regionWeight
        }

        @inline(__always)
        mutating func add(column: Int, row: Int, weight: Double, cappedWeight: Double) {
            let x = Double(column) + 0.5 - origin.x, y = Double(row) + 0.5 - origin.y
            full.add(x: x, y: y, weight: weight)
            capped.add(x: x, y: y, weight: cappedWeight)
        }
    }
}
