/// A 3 × 3 binomial blur (weights 1-2-1 across and down, ÷ 16), applied to every frame
/// before differencing.
///
/// Averaging nine neighbours cuts uncorrelated sensor noise to 3/8 of its standard deviation
/// while a ball of radius ≥ 2 px keeps nearly all its contrast, so small, faint balls clear a
/// threshold that noise alone does not. The filter is symmetric, so it does not move a centroid;
/// it adds `addedVariance` to the spatial variance of every shape, which the radius estimate
/// takes back out.
///
/// Each pass is ⌊(⌊(a + c) / 2⌋ + b) / 2⌋ of the neighbours a, b, c (rows first, then columns)
/// with edge pixels repeated, so vector and scalar code give identical bytes.
public struct BinomialSmoother {
    /// Variance, in px² along each axis, that smoothing adds to a shape (that of 1-2-1 ÷ 4).
    public static let addedVariance = 0.5

    /// One smoothed-down row with its edge pixels repeated at both ends:
    /// `rowScratch[x + 1]` holds column `x`. The vector passes keep it complemented (255 − v),
    /// as their averages work on complements (``ByteVector/floorAverage(_:_:)``): each pass
    /// then takes three complements fewer per 16 pixels.
    private var rowScratch: [UInt8] = []

    public init() {}

    /// Smooths `source` (laid out as `layout`) into `destination`, whose rows start
    /// `destinationBytesPerRow` bytes apart. Only the first `layout.width` bytes of each
    /// destination row are written.
    public mutating func smooth(
        _ source: Span<UInt8>, layout: PlaneLayout,
        into destination: inout MutableSpan<UInt8>, destinationBytesPerRow: Int
    ) {
        let destinationLayout = PlaneLayout(
            width: layout.width, height: layout.height, bytesPerRow: destinationBytesPerRow)
        precondition(source.count >= layout.minimumByteCount, "source must hold \(layout.minimumByteCount) bytes")
        precondition(
            destination.count >= destinationLayout.minimumByteCount,
            "destination must hold \(destinationLayout.minimumByteCount) bytes")
        if rowScratch.count < layout.width + 2 {
            rowScratch = [UInt8](repeating: 0, count: layout.width + 2)
        }
        for row in 0..<layout.height {
            let above = max(row - 1, 0) * layout.bytesPerRow
            let middle = row * layout.bytesPerRow
            let below = min(row + 1, layout.height - 1) * layout.bytesPerRow
            smoothDown(source, above: above, middle: middle, below: below, width: layout.width)
            smoothAcross(into: &destination, rowStart: row * destinationBytesPerRow, width: layout.width)
        }
    }

    /// Vertical pass of one row into `rowScratch[1...width]`, then the edge copies.
    ///
    /// The vector loop loads and stores without a bounds check per vector: `smooth` checked
    /// that every source row lies inside `source`, `rowScratch` holds `width + 2` bytes, and
    /// `forEachChunkStart` keeps every chunk inside `0..<width`.
    private mutating func smoothDown(_ source: Span<UInt8>, above: Int, middle: Int, below: Int, width: Int) {
        var scratch = rowScratch.mutableSpan
        if width >= ByteVector.scalarCount {
            let bytes = source.bytes
            var scratchBytes = scratch.mutableBytes
            forEachChunkStart(coveringWidth: width) { x in
                let up = bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: above &+ x, as: ByteVector.self)
                let centre = bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: middle &+ x, as: ByteVector.self)
                let down = bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: below &+ x, as: ByteVector.self)
                // ⌊(⌊(up + down) / 2⌋ + centre) / 2⌋, complemented: ~⌊(a + b) / 2⌋ = ⌈(~a + ~b) / 2⌉.
                let complemented = ByteVector.ceilingAverage(
                    ByteVector.ceilingAverage(up.complemented, down.complemented), centre.complemented)
                scratchBytes.storeBytes(of: complemented, toUncheckedByteOffset: x &+ 1, as: ByteVector.self)
            }
        } else {
            for x in 0..<width {
                scratch[x + 1] = ScalarBytes.floorAverage(
                    ScalarBytes.floorAverage(source[above + x], source[below + x]), source[middle + x])
            }
        }
        scratch[0] = scratch[1]
        scratch[width + 1] = scratch[width]
    }

    /// Horizontal pass from `rowScratch` into one destination row (unchecked like
    /// `smoothDown`: `smooth` checked that the destination holds every row).
    private func smoothAcross(into destination: inout MutableSpan<UInt8>, rowStart: Int, width: Int) {
        let scratch = rowScratch.span
        if width >= ByteVector.scalarCount {
            let scratchBytes = scratch.bytes
            var destinationBytes = destination.mutableBytes
            forEachChunkStart(coveringWidth: width) { x in
                // Column x's left, centre and right neighbours sit at scratch x, x + 1, x + 2.
                let left = scratchBytes.unsafeLoadUnaligned(fromUncheckedByteOffset: x, as: ByteVector.self)
                let centre = scratchBytes.unsafeLoadUnaligned(fromUncheckedByteOffset: x &+ 1, as: ByteVector.self)
                let right = scratchBytes.unsafeLoadUnaligned(fromUncheckedByteOffset: x &+ 2, as: ByteVector.self)
                // The scratch row is complemented: average the complements, complement once.
                let smoothed = ByteVector.ceilingAverage(ByteVector.ceilingAverage(left, right), centre).complemented
                destinationBytes.storeBytes(of: smoothed, toUncheckedByteOffset: rowStart &+ x, as: ByteVector.self)
            }
        } else {
            for x in 0..<width {
                destination[rowStart + x] = ScalarBytes.floorAverage(
                    ScalarBytes.floorAverage(scratch[x], scratch[x + 2]), scratch[x + 1])
            }
        }
    }
}
