/// A connected region of motion found in one frame: a candidate ball.
///
/// All lengths are in pixels of the full frame (not of any reduced analysis resolution),
/// positions top-left origin (see `PixelPoint`).
public struct Blob: Sendable, Hashable {
    /// Sub-pixel centroid, weighted by how strongly each pixel changed.
    public var center: PixelPoint
    /// Radius of the object: for a motion-blurred ball, the half-width across the streak,
    /// not its length.
    public var radius: Double
    /// Pixels in the region.
    public var area: Int
    /// Mean absolute luma change over the region (0–255): how clearly it stands out.
    public var contrast: Double
    /// Length of the region along its major axis divided by its width across it
    /// (1 for a disc; larger for a streak or an arm).
    public var elongation: Double
    /// Direction of the major axis in radians, in (−π/2, π/2], image axes (y down).
    public var orientation: Double
    /// Fraction of the region's bounding ellipse it fills (near 1 for a ball, lower for
    /// ragged shapes such as a hand or foliage).
    public var solidity: Double

    public init(
        center: PixelPoint, radius: Double, area: Int, contrast: Double,
        elongation: Double = 1, orientation: Double = 0, solidity: Double = 1
    ) {
        self.center = center
        self.radius = radius
        self.area = area
        self.contrast = contrast
        self.elongation = elongation
        self.orientation = orientation
        self.solidity = solidity
    }
}

extension Blob {
    /// How far its ellipse reaches from the centre along the major axis: `radius` times
    /// `elongation`, never less than `radius`. The tracker's tests of what lies near a blob,
    /// and the column index that narrows them down (``BlobColumnIndex``), all use this one length.
    var halfLength: Double { radius * max(1, elongation) }

    /// This blob, measured in a frame shrunk `reduction` times by averaging blocks, in pixels
    /// of the full frame: analysed pixel i covers [i, i + 1), full pixels [reduction·i, reduction·(i + 1)).
    func inFullFrame(reducedBy reduction: Int) -> Blob {
        let scale = Double(reduction)
        var blob = self
        blob.center = PixelPoint(x: center.x * scale, y: center.y * scale)
        blob.radius = radius * scale
        blob.area = area * reduction * reduction
        return blob
    }
}
