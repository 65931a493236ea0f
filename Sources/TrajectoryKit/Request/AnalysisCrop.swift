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
    /// frame that the detector analyses shrunk `reduction` times in all, for `region`; nil
    /// when the region with its margin covers the whole plane.
    ///
    /// The crop's size depends only on the region's size, not on where it lies, and a crop that
    /// would reach past the plane's edge is moved inside it rather than cut: a region that
    /// moves from frame to frame then keeps one size, and the detector can follow it (a crop of
    /// another size starts the detector afresh).
    ///
    /// It is worked out in the pixels the detector analyses, rounded to 4 there (starts down,
    /// sizes up, with room for the start's rounding) so that its own shrinking keeps whole
    /// blocks, and only then scaled to the lent plane's. So a frame handed over already shrunk
    /// (as the decoding lanes copy it) is cropped to the very pixels that a frame shrunk by
    /// the detector is: the results do not depend on which side of the queue shrank it.
    init?(
        region: NormalizedRect, frameWidth: Int, frameHeight: Int, shrunkBy: Int, analysedAt reduction: Int,
        layout: PlaneLayout
    ) {
        guard region != .full else { return nil }
        precondition(reduction % shrunkBy == 0, "a plane is analysed shrunk at least as much as it was handed over")
        let margin = max(Self.minimumMargin, Int(Self.marginFraction * Double(frameWidth)))
        let bounds = region.pixelBounds(width: frameWidth, height: frameHeight)
        // Full-frame pixels to analysed ones, and analysed ones to the lent plane's.
        let lentPerAnalysed = reduction / shrunkBy
        func start(_ value: Int) -> Int { max(0, value) / reduction / 4 * 4 }
        func size(_ value: Int) -> Int { (value / reduction + 3) / 4 * 4 + 4 }
        func span(from value: Int, size: Int, within lentLimit: Int) -> Range<Int>? {
            let limit = lentLimit / lentPerAnalysed
            guard size < limit else { return nil }
            let first = min(start(value), (limit - size) / 4 * 4)
            return (first * lentPerAnalysed)..<((first + size) * lentPerAnalysed)
        }
        // The region's size in whole pixels, from its normalized size alone (its bounds gain a
        // pixel or not by where its edges fall).
        let regionWidth = Int((region.width * Double(frameWidth)).rounded(.up)) + 1
        let regionHeight = Int((region.height * Double(frameHeight)).rounded(.up)) + 1
        let columns = span(from: bounds.minX - margin, size: size(regionWidth + 2 * margin), within: layout.width)
        let rows = span(from: bounds.minY - margin, size: size(regionHeight + 2 * margin), within: layout.height)
        guard columns != nil || rows != nil else { return nil }
        let x = columns ?? 0..<layout.width, y = rows ?? 0..<layout.height
        let rect = PixelRect(minX: x.lowerBound, minY: y.lowerBound, maxX: x.upperBound, maxY: y.upperBound)
        guard !rect.isEmpty else { return nil }
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
