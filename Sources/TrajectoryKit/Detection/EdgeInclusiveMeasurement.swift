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
        let cap = region.change.weight / Double(region.area) / 2
        let columns = max(0, region.bounds.minX - Self.margin)..<min(layout.width, region.bounds.maxX + Self.margin)
        let rows = max(0, region.bounds.minY - Self.margin)..<min(layout.height, region.bounds.maxY + Self.margin)
        // Positions relative to the region's centroid keep the sums small and exact.
        let origin = region.change.mean
        var full = MomentSums(), capped = MomentSums()
        for row in rows {
            let y = Double(row) + 0.5 - origin.y
            let rowStart = row * layout.bytesPerRow
            for column in columns {
                let change = Double(motion[rowStart + column])
                let x = Double(column) + 0.5 - origin.x
                full.add(x: x, y: y, weight: change - noiseLevel)
                capped.add(x: x, y: y, weight: min(change, cap) - noiseLevel)
            }
        }
        // Noise can outweigh a faint region's edge; then the thresholded measurement stays.
        guard full.weight > region.change.weight / 2, capped.weight > 0 else { return nil }
        let spread = full.covariance
        guard spread.principalVariances.minor > 0 else { return nil }
        self.spread = spread
        let offset = capped.mean
        center = PixelPoint(x: origin.x + offset.x, y: origin.y + offset.y)
    }
}
