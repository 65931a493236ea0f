/// Chooses which of a frame's measured blobs to report, by the configuration's filters.
///
/// Besides the radius and region-of-interest limits, it drops the pieces of objects too large
/// for the maximum radius: a moving arm or person breaks into one large region and often a
/// few small ones beside it (parts of the sleeve, fingers), and those pieces would otherwise
/// pass a maximum radius meant to exclude the arm. A blob whose centre lies within the moment
/// ellipse of a too-large region, widened by `pieceReach`, is taken for such a piece.
///
/// It drops, too, the pieces of a slow ball measured whole: the motion image can split such
/// a ball into its leading crescent, the crescent's tips and a ghost behind it, and the one
/// region measured whole stands for them all.
struct BlobSelection {
    /// How far around a too-large region its pieces are looked for, in units of its moment
    /// ellipse (whose edge is at 2 for a uniformly filled ellipse).
    static let pieceReach = 2.5
    /// How far around a ball measured whole other regions are taken for pieces of it, in its
    /// radii: the tips of its leading crescent lie on its edge, its ghost just behind it.
    static let wholePieceReach = 1.5

    private struct Candidate {
        var blob: Blob
        var isWhole: Bool
    }

    private var candidates: [Candidate] = []
    private var tooLarge: [MomentEllipse] = []

    /// Forgets the previous frame's blobs.
    mutating func removeAll() {
        candidates.removeAll(keepingCapacity: true)
        tooLarge.removeAll(keepingCapacity: true)
    }

    /// Records one measured blob of the frame and the region it was measured from.
    ///
    /// - Parameter isWhole: whether the blob was measured whole (``WholeObjectRefiner``).
    mutating func add(
        _ blob: Blob, region: RegionMoments, isWhole: Bool, configuration: BlobDetector.Configuration, frameWidth: Int
    ) {
        if blob.radius / Double(frameWidth) > configuration.maximumNormalizedRadius {
            tooLarge.append(MomentEllipse(region))
        } else {
            candidates.append(Candidate(blob: blob, isWhole: isWhole))
        }
    }

    /// Records a piece split out of a large moving region (``MovingRegionSplitter``), unless it
    /// is too large itself, or is a blob already recorded (a ball beside the region, whose own
    /// region the splitter's window around the large one took in).
    mutating func addSplitPiece(_ piece: Blob, configuration: BlobDetector.Configuration, frameWidth: Int) {
        guard piece.radius / Double(frameWidth) <= configuration.maximumNormalizedRadius,
            !candidates.contains(where: { isSameObject($0.blob, piece) })
        else { return }
        candidates.append(Candidate(blob: piece, isWhole: false))
    }

    /// Whether two blobs are one object measured twice: centres within half the smaller radius.
    /// (A piece some radii off a blob of its size is often the better measurement of a ball
    /// whose own region took in part of the person behind it.)
    private func isSameObject(_ a: Blob, _ b: Blob) -> Bool {
        a.center.distance(to: b.center) < min(a.radius, b.radius) / 2
    }

    /// Appends to `selected` the recorded blobs that pass every filter.
    func select(
        into selected: inout [Blob], configuration: BlobDetector.Configuration, frameWidth: Int, frameHeight: Int
    ) {
        for (index, candidate) in candidates.enumerated()
        where configuration.accepts(candidate.blob, frameWidth: frameWidth, frameHeight: frameHeight)
            && !tooLarge.contains(where: { $0.reaches(candidate.blob.center, within: Self.pieceReach) })
            && !isPieceOfWholeBall(index)
        {
            selected.append(candidate.blob)
        }
    }

    /// Whether candidate `index` belongs to a ball another candidate measured whole: a region
    /// near it that was not measured whole, or the same ball measured whole again from another
    /// of its regions (then the first one stays).
    private func isPieceOfWholeBall(_ index: Int) -> Bool {
        let candidate = candidates[index]
        for (other, ball) in candidates.enumerated() where other != index && ball.isWhole {
            let distance = candidate.blob.center.distance(to: ball.blob.center)
            if candidate.isWhole {
                if other < index && distance < max(candidate.blob.radius, ball.blob.radius) / 4 { return true }
            } else if distance < ball.blob.radius * Self.wholePieceReach {
                return true
            }
        }
        return false
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
