/// The part of a frame the detector looks at when the request has a region of interest: the
/// region's pixels and a margin around them, so that a ball whose centre lies just inside the
/// region is seen whole. Frames are cropped by lending the detector a part of the plane (no
/// copy), which limits all its work to that part.
///
/// Coordinates: `origin` and the crop's size are in pixels of the plane as lent (the frame
/// shrunk `shrunkBy` times); blobs come back from the detector in full-frame pixels relative
/// to the crop, and ``toFullFrame(_:)`` moves them to the frame.
struct AnalysisCrop {
    /// Margin around the region, as a fraction of the frame's width, and at least this many pixels.
    static let marginFraction = 0.05
    static let minimumMargin = 16

    /// The crop in the lent plane's pixels.
    let rect: PixelRect
    /// The crop's top-left corner in full-frame pixels.
    let fullFrameOrigin: PixelPoint
    /// The crop's width in full-frame pixels: the detector's radius limits are relative to it.
    let fullFrameWidth: Int

    /// The crop of a `layout` plane, shrunk `shrunkBy` times from a `frameWidth` × `frameHeight`
    /// frame, for `region`; nil when the region with its margin covers the whole plane.
    init?(region: NormalizedRect, frameWidth: Int, frameHeight: Int, shrunkBy: Int, layout: PlaneLayout) {
        guard region != .full else { return nil }
        let margin = max(Self.minimumMargin, Int(Self.marginFraction * Double(frameWidth)))
        let bounds = region.pixelBounds(width: frameWidth, height: frameHeight)
        // Full-frame pixels to plane pixels, outwards; edges rounded to 4 so that any further
        // shrinking keeps whole blocks.
        func plane(_ value: Int, down: Bool) -> Int {
            let shrunk = down ? value / shrunkBy : (value + shrunkBy - 1) / shrunkBy
            return down ? shrunk / 4 * 4 : (shrunk + 3) / 4 * 4
        }
        let rect = PixelRect(
            minX: max(0, plane(bounds.minX - margin, down: true)), minY: max(0, plane(bounds.minY - margin, down: true)),
            maxX: min(layout.width, plane(bounds.maxX + margin, down: false)),
            maxY: min(layout.height, plane(bounds.maxY + margin, down: false)))
        guard rect.width < layout.width || rect.height < layout.height, !rect.isEmpty else { return nil }
        self.rect = rect
        fullFrameOrigin = PixelPoint(x: Double(rect.minX * shrunkBy), y: Double(rect.minY * shrunkBy))
        fullFrameWidth = rect.width * shrunkBy
    }

    /// The layout of the crop within the plane (same rows, fewer of them, narrower).
    func layout(in plane: PlaneLayout) -> PlaneLayout {
        PlaneLayout(width: rect.width, height: rect.height, bytesPerRow: plane.bytesPerRow)
    }

    /// Where the crop's first pixel lies in the plane.
    func offset(in plane: PlaneLayout) -> Int { rect.minY * plane.bytesPerRow + rect.minX }

    /// A blob the detector found in the crop, in full-frame pixels.
    func toFullFrame(_ blob: Blob) -> Blob {
        var moved = blob
        moved.center = PixelPoint(x: blob.center.x + fullFrameOrigin.x, y: blob.center.y + fullFrameOrigin.y)
        return moved
    }
}
