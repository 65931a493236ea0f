/// Shrinks an 8-bit plane by averaging square blocks of pixels: how a frame is reduced for
/// analysis (``BlobDetector/Configuration/analysisReduction``).
///
/// Public so that a decoder can shrink a frame as it copies it out of the decoder's memory,
/// reading the decoded plane once, and hand the detector the small copy
/// (``SequenceRequestHandler/perform(_:luma:layout:shrunkBy:frameWidth:frameHeight:frame:)``).
/// The reduced pixels are exactly those the detector would make from the whole frame.
public enum FrameShrinking {
    /// The size of a `width` × `height` plane shrunk `reduction` times: columns and rows that do
    /// not fill a block are left out.
    public static func shrunkSize(width: Int, height: Int, by reduction: Int) -> (width: Int, height: Int) {
        (width / reduction, height / reduction)
    }

    /// Writes `source`, laid out as `layout`, shrunk `reduction` times (1, 2 or 4) into
    /// `destination`, rows `destinationBytesPerRow` apart. By 2 each pixel is the rounded mean
    /// of a 2 × 2 block; by 4 the mean of a 4 × 4 block, each column averaged down pairwise
    /// and rounded down, then the four columns' rounded mean (from 1.25 grey levels below the
    /// exact mean to 0.5 above); by 1 the rows are copied.
    public static func shrink(
        _ source: Span<UInt8>, layout: PlaneLayout, by reduction: Int,
        into destination: inout MutableSpan<UInt8>, destinationBytesPerRow: Int
    ) {
        precondition(
            BlobDetector.Configuration.allowedAnalysisReductions.contains(reduction),
            "reduction must be one of \(BlobDetector.Configuration.allowedAnalysisReductions), got \(reduction)")
        let size = shrunkSize(width: layout.width, height: layout.height, by: reduction)
        guard size.width > 0, size.height > 0 else { return }
        precondition(source.count >= layout.minimumByteCount, "source must hold \(layout.minimumByteCount) bytes")
        precondition(
            destination.count >= (size.height - 1) * destinationBytesPerRow + size.width,
            "destination must hold the shrunk plane")
        var outputBytes = destination.mutableBytes
        switch reduction {
        case 2: shrinkByTwo(source, layout: layout, into: &outputBytes, outputBytesPerRow: destinationBytesPerRow)
        case 4: shrinkByFour(source, layout: layout, into: &outputBytes, outputBytesPerRow: destinationBytesPerRow)
        default:
            for row in 0..<layout.height {
                for column in 0..<layout.width {
                    outputBytes.storeBytes(
                        of: source[row * layout.bytesPerRow + column], toByteOffset: row * destinationBytesPerRow + column,
                        as: UInt8.self)
                }
            }
        }
    }

    private static func shrinkByFour(
        _ source: Span<UInt8>, layout sourceLayout: PlaneLayout, into outputBytes: inout MutableRawSpan,
        outputBytesPerRow: Int
    ) {
        let width = sourceLayout.width / 4, height = sourceLayout.height / 4
        let bytes = source.bytes
        let rowStride = sourceLayout.bytesPerRow
        for row in 0..<height {
            let top = 4 * row * rowStride
            // Whole vectors: the mean of four rows, then of each four neighbouring columns.
            var column = 0
            while column + ByteVector.scalarCount <= 4 * width {
                let first = bytes.unsafeLoadUnaligned(fromByteOffset: top + column, as: ByteVector.self)
                let second = bytes.unsafeLoadUnaligned(fromByteOffset: top + rowStride + column, as: ByteVector.self)
                let third = bytes.unsafeLoadUnaligned(fromByteOffset: top + 2 * rowStride + column, as: ByteVector.self)
                let fourth = bytes.unsafeLoadUnaligned(fromByteOffset: top + 3 * rowStride + column, as: ByteVector.self)
                let down = ByteVector.floorAverage(ByteVector.floorAverage(first, second), ByteVector.floorAverage(third, fourth))
                outputBytes.storeBytes(
                    of: down.meanOfEachFour, toByteOffset: row * outputBytesPerRow + column / 4, as: SIMD4<UInt8>.self)
                column += ByteVector.scalarCount
            }
            // The last few blocks of the row, one at a time, rounded as the vectors are.
            while column < 4 * width {
                var sum = 0
                for x in column..<(column + 4) {
                    let upper = ScalarBytes.floorAverage(source[top + x], source[top + rowStride + x])
                    let lower = ScalarBytes.floorAverage(source[top + 2 * rowStride + x], source[top + 3 * rowStride + x])
                    sum += Int(ScalarBytes.floorAverage(upper, lower))
                }
                outputBytes.storeBytes(
                    of: UInt8((sum + 2) / 4), toByteOffset: row * outputBytesPerRow + column / 4, as: UInt8.self)
                column += 4
            }
        }
    }

    private static func shrinkByTwo(
        _ source: Span<UInt8>, layout sourceLayout: PlaneLayout, into outputBytes: inout MutableRawSpan,
        outputBytesPerRow: Int
    ) {
        let width = sourceLayout.width / 2, height = sourceLayout.height / 2
        let bytes = source.bytes
        let rowStride = sourceLayout.bytesPerRow
        for row in 0..<height {
            let upper = 2 * row * rowStride, lower = upper + rowStride
            let outputRow = row * outputBytesPerRow
            // Pairs of vectors: 32 source columns of both rows make 16 reduced pixels, packed
            // into one vector (a single `packuswb`).
            var column = 0
            while column + 2 * ByteVector.scalarCount <= 2 * width {
                let means = SIMD16<UInt16>(
                    lowHalf: meansOfBlocks(bytes, upper: upper + column, lower: lower + column),
                    highHalf: meansOfBlocks(
                        bytes, upper: upper + column + ByteVector.scalarCount, lower: lower + column + ByteVector.scalarCount))
                outputBytes.storeBytes(
                    of: ByteVector(truncatingIfNeeded: means), toByteOffset: outputRow + column / 2, as: ByteVector.self)
                column += 2 * ByteVector.scalarCount
            }
            // One more vector: 16 source columns make 8 reduced pixels.
            while column + ByteVector.scalarCount <= 2 * width {
                let means = meansOfBlocks(bytes, upper: upper + column, lower: lower + column)
                outputBytes.storeBytes(of: means.packedBytes, toByteOffset: outputRow + column / 2, as: UInt64.self)
                column += ByteVector.scalarCount
            }
            // The last few blocks of the row, one at a time.
            while column < 2 * width {
                let sum = Int(source[upper + column]) + Int(source[upper + column + 1])
                    + Int(source[lower + column]) + Int(source[lower + column + 1])
                outputBytes.storeBytes(of: UInt8((sum + 2) / 4), toByteOffset: outputRow + column / 2, as: UInt8.self)
                column += 2
            }
        }
    }

    /// The rounded means of the eight 2 × 2 blocks of the 16 bytes at `upper` and the 16 at `lower`.
    @inline(__always)
    private static func meansOfBlocks(_ bytes: RawSpan, upper: Int, lower: Int) -> SIMD8<UInt16> {
        let top = bytes.unsafeLoadUnaligned(fromByteOffset: upper, as: ByteVector.self)
        let bottom = bytes.unsafeLoadUnaligned(fromByteOffset: lower, as: ByteVector.self)
        return (top.sumOfEachPair &+ bottom.sumOfEachPair &+ 2) &>> 2
    }
}
