/// Chooses which of a frame's measured blobs to report, by the configuration's filters.
///
/// Besides the radius and region-of-interest limits, it drops the pieces of objects too large
/// for the maximum radius: a moving arm or person breaks into one large region and often a
/// few small ones beside it (parts of the sleeve, fingers), and those pieces would otherwise
/// pass a maximum radius meant to exclude the arm. A blob whose centre lies within the moment
/// ellipse of a too-large region, widened by `pieceReach`, is taken for such a piece.
struct BlobSelection {
    /// How far around a too-large region its pieces are looked for, in units of its moment
    /// ellipse (whose edge is at 2 for a uniformly filled ellipse).
    static let pieceReach = 2.5

    private var candidates: [Blob] = []
    private var tooLarge: [MomentEllipse] = []
    /// The blobs measured whole so far this frame.
    private var whole: [Blob] = []

    /// Forgets the previous frame's blobs.
    mutating func removeAll() {
        candidates.removeAll(keepingCapacity: true)
        tooLarge.removeAll(keepingCapacity: true)
        whole.removeAll(keepingCapacity: true)
    }

    /// Records one measured blob of the frame and the region it was measured from.
    ///
    /// - Parameter isWhole: whether the blob was measured whole (``WholeObjectRefiner``). A
    ///   ball's leading crescent and its ghost can be two regions of the motion image that are
    ///   both measured as the same whole ball; the second such blob is dropped.
    mutating func add(
        _ blob: Blob, region: RegionMoments, isWhole: Bool, configuration: BlobDetector.Configuration, frameWidth: Int
    ) {
        if isWhole {
            guard !whole.contains(where: { Self.isSameObject($0, blob) }) else { return }
            whole.append(blob)
        }
        if blob.radius / Double(frameWidth) > configuration.maximumNormalizedRadius {
            tooLarge.append(MomentEllipse(region))
        } else {
            candidates.append(blob)
        }
    }

    /// Whether two blobs measured whole are one object: centres within a quarter of the radius.
    private static func isSameObject(_ a: Blob, _ b: Blob) -> Bool {
        let dx = a.center.x - b.center.x, dy = a.center.y - b.center.y
        let reach = max(a.radius, b.radius) / 4
        return dx * dx + dy * dy <= reach * reach
    }

    /// Appends to `selected` the recorded blobs that pass every filter.
    func select(
        into selected: inout [Blob], configuration: BlobDetector.Configuration, frameWidth: Int, frameHeight: Int
    ) {
        for blob in candidates
        where configuration.accepts(blob, frameWidth: frameWidth, frameHeight: frameHeight)
            && !tooLarge.contains(where: { $0.reaches(blob.center, within: Self.pieceReach) })
        {
            selected.append(blob)
        }
    }
}

/// The ellipse with the same centre and second moments as a region's pixels.
struct MomentEllipse {
    let center: PixelPoint
    let shape: Covariance2D

    init(_ region: RegionMoments) {
        center = region.shape.mean
        var shape = region.shape.covariance
        // Each pixel is a unit square: this keeps a one-pixel-wide region's ellipse non-degenerate.
        shape.xx += 1.0 / 12
        shape.yy += 1.0 / 12
        self.shape = shape
    }

    /// Whether `point` lies within `distance` standard deviations of the centre
    /// (Mahalanobis distance; a uniformly filled ellipse ends at 2).
    func reaches(_ point: PixelPoint, within distance: Double) -> Bool {
        let dx = point.x - center.x, dy = point.y - center.y
        let squared = (shape.yy * dx * dx - 2 * shape.xy * dx * dy + shape.xx * dy * dy) / shape.determinant
        return squared <= distance * distance
    }
}
