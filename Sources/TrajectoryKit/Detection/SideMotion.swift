/// How much the picture moved on either side of a ball, across its direction of travel, as a
/// fraction of how much the ball itself moved: the carrier cue.
///
/// A ball in a hand moves with the hand and the arm, and the arm reaches from the ball to the
/// shoulder it swings about: across the ball's path, on one side, for as long as it is
/// carried. A ball in flight has nothing beside it that moves with it; what moves beside it
/// at all (a walker it passes, a flicker) does so now on one side, now on the other.
public struct SideMotion: Sendable, Hashable {
    /// Unit vector across the ball's travel (image axes, y down), pointing to the side whose
    /// motion is ``alongAcross``.
    public var across: PixelVector
    /// Mean motion beside the ball in the direction of ``across``, less the frame's still
    /// level, as a fraction of the ball's own mean motion less that level.
    public var alongAcross: Double
    /// The same on the opposite side.
    public var opposite: Double

    public init(across: PixelVector, alongAcross: Double, opposite: Double) {
        self.across = across
        self.alongAcross = alongAcross
        self.opposite = opposite
    }

    /// The motion on the side `direction` points to (of the two across the travel; the one
    /// nearer it), and on the other: `(towards, away)`.
    public func sides(towards direction: PixelVector) -> (towards: Double, away: Double) {
        across.x * direction.x + across.y * direction.y >= 0 ? (alongAcross, opposite) : (opposite, alongAcross)
    }
}

/// Measures ``SideMotion`` between two frames: the mean change from the frame before, in
/// patches at ``patchDistances`` radii from the ball's centre across its travel, each of
/// ``patchRadius`` radii, against a disc of the ball's radius at its centre.
///
/// It compares with the one frame before, not with the three the detector's motion image
/// takes the least change from: an arm moves about its own width from frame to frame, so the
/// least change hides most of it.
///
/// The distances start beyond the ball's own rim and blur (a fast ball's streak lies along
/// its travel, not across it) and reach about as far as a forearm: far enough that an arm
/// seen edge-on, a few pixels wide, still covers part of each patch.
struct SideMotionMeter {
    static let patchDistances = [2.5, 3.5, 4.5]
    static let patchRadius = 0.7
    /// Below this much change of its own (grey levels above the still level), a ball's ratio
    /// means nothing: it is all but standing still.
    static let leastBallChange = 1.0

    let layout: PlaneLayout
    /// Where a point of the current frame was in the previous one, whole pixels: the camera's
    /// motion between them, rounded, taken away.
    let shift: (x: Int, y: Int)
    /// The change a still pixel shows.
    let stillLevel: Double

    /// The side motion of a ball at `center` (pixels of the frames) with `radius`, travelling
    /// along `travel`, from `previous` to `current`. Nil when the ball barely changed, its
    /// travel is unknown, or a side lies wholly outside the frame.
    func measure(
        from previous: Span<UInt8>, to current: Span<UInt8>, center: PixelPoint, radius: Double, travel: PixelVector
    ) -> SideMotion? {
        let length = travel.length
        guard length > 0, radius > 0 else { return nil }
        guard let ball = meanChange(from: previous, to: current, inDiscAt: center, radius: max(radius, 1)) else { return nil }
        let ballChange = ball - stillLevel
        guard ballChange >= Self.leastBallChange else { return nil }
        let across = PixelVector(x: -travel.y / length, y: travel.x / length)
        func side(_ sign: Double) -> Double? {
            var sum = 0.0, count = 0
            for distance in Self.patchDistances {
                let patchCenter = PixelPoint(
                    x: center.x + sign * distance * radius * across.x, y: center.y + sign * distance * radius * across.y)
                if let mean = meanChange(from: previous, to: current, inDiscAt: patchCenter, radius: max(Self.patchRadius * radius, 1)) {
                    sum += mean
                    count += 1
                }
            }
            return count > 0 ? (sum / Double(count) - stillLevel) / ballChange : nil
        }
        guard let alongAcross = side(1), let opposite = side(-1) else { return nil }
        return SideMotion(across: across, alongAcross: alongAcross, opposite: opposite)
    }

    /// The mean absolute change from the previous frame of the pixels whose centres lie within
    /// `radius` of `center` (pixel i covers [i, i + 1)), counting those whose earlier place is
    /// in the frame too; nil when there are none.
    private func meanChange(
        from previous: Span<UInt8>, to current: Span<UInt8>, inDiscAt center: PixelPoint, radius: Double
    ) -> Double? {
        let firstColumn = max(0, -shift.x, Int((center.x - radius - 0.5).rounded(.up)))
        let lastColumn = min(layout.width - 1, layout.width - 1 - shift.x, Int((center.x + radius - 0.5).rounded(.down)))
        let firstRow = max(0, -shift.y, Int((center.y - radius - 0.5).rounded(.up)))
        let lastRow = min(layout.height - 1, layout.height - 1 - shift.y, Int((center.y + radius - 0.5).rounded(.down)))
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return nil }
        var sum = 0, count = 0
        let radiusSquared = radius * radius
        for row in firstRow...lastRow {
            let dy = Double(row) + 0.5 - center.y
            let rowStart = row * layout.bytesPerRow
            let earlierRowStart = (row + shift.y) * layout.bytesPerRow + shift.x
            for column in firstColumn...lastColumn {
                let dx = Double(column) + 0.5 - center.x
                guard dx * dx + dy * dy <= radiusSquared else { continue }
                sum += abs(Int(current[rowStart + column]) - Int(previous[earlierRowStart + column]))
                count += 1
            }
        }
        return count > 0 ? Double(sum) / Double(count) : nil
    }
}
