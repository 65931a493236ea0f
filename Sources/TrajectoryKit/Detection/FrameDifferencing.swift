/// Multi-frame differencing: where does the current frame differ from *each* of the three
/// frames before it?
///
/// A moving ball changes the pixels it now covers relative to every earlier frame in which it
/// was elsewhere. A pixel it has left shows background now, and so looks like at least one
/// earlier frame, unless the ball covered it in all three: taking the smallest of the three
/// differences keeps the ball where it is now and suppresses its ghosts, so the ball is
/// localized in the current frame with no latency. Three earlier frames rather than two
/// matter for real footage: a motion-blurred ball leaves streaks that meet end to end, and
/// with only two earlier frames the spot where two streaks meet would come out as a ghost.
///
/// All planes share one `PlaneLayout`; bytes between `width` and `bytesPerRow` are neither
/// read for the result nor written.
public enum FrameDifferencing {
    /// Writes `min(|current − oneBefore|, |current − twoBefore|, |current − threeBefore|)`
    /// for every pixel into `motion`.
    ///
    /// - Complexity: O(width × height), 16 pixels per vector step.
    public static func minimumAbsoluteDifference(
        current: Span<UInt8>, oneBefore: Span<UInt8>, twoBefore: Span<UInt8>, threeBefore: Span<UInt8>,
        layout: PlaneLayout, into motion: inout MutableSpan<UInt8>
    ) {
        let needed = layout.minimumByteCount
        precondition(
            current.count >= needed && oneBefore.count >= needed && twoBefore.count >= needed
                && threeBefore.count >= needed && motion.count >= needed,
            "every plane must hold at least \(needed) bytes for \(layout)")

        guard layout.width >= ByteVector.scalarCount else {
            minimumAbsoluteDifferenceScalar(
                current: current, oneBefore: oneBefore, twoBefore: twoBefore, threeBefore: threeBefore,
                layout: layout, into: &motion)
            return
        }
        let now = current.bytes
        let earlier = (oneBefore.bytes, twoBefore.bytes, threeBefore.bytes)
        var motionBytes = motion.mutableBytes
        // No bounds check per vector: every plane was checked above to hold every row, and
        // `forEachChunkStart` keeps every chunk inside its row.
        for row in 0..<layout.height {
            let rowStart = row * layout.bytesPerRow
            forEachChunkStart(coveringWidth: layout.width) { x in
                let offset = rowStart + x
                let pixels = now.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: ByteVector.self)
                let first = earlier.0.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: ByteVector.self)
                let second = earlier.1.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: ByteVector.self)
                let third = earlier.2.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: ByteVector.self)
                let change = ByteVector.minimum(
                    ByteVector.minimum(
                        ByteVector.absoluteDifference(pixels, first), ByteVector.absoluteDifference(pixels, second)),
                    ByteVector.absoluteDifference(pixels, third))
                motionBytes.storeBytes(of: change, toUncheckedByteOffset: offset, as: ByteVector.self)
            }
        }
    }

    /// Writes, for every pixel, the smallest change from the three frames before it when the
    /// camera moved by `cameraMotion` since each: the difference of the current value from the
    /// earlier frame blended at the place where the same point of a still scene showed then,
    /// less an allowance for sharp detail there (``EarlierFrameSampling``), so that a shaken
    /// background shows no change while a ball moving over it does. Pixels whose place lies beyond the edge of any
    /// of the three frames get 0: nothing is known of them. With no motion at all this is
    /// ``minimumAbsoluteDifference(current:oneBefore:twoBefore:threeBefore:layout:into:)``.
    ///
    /// - Parameter cameraMotion: how far the picture moved since each of the three earlier frames.
    /// - Complexity: O(width × height), 16 pixels per vector step.
    public static func minimumAbsoluteDifference(
        current: Span<UInt8>, oneBefore: Span<UInt8>, twoBefore: Span<UInt8>, threeBefore: Span<UInt8>,
        cameraMotion: (sinceOneBefore: CameraMotion, sinceTwoBefore: CameraMotion, sinceThreeBefore: CameraMotion),
        layout: PlaneLayout, into motion: inout MutableSpan<UInt8>
    ) {
        let sampling = (
            EarlierFrameSampling(cameraMotion.sinceOneBefore), EarlierFrameSampling(cameraMotion.sinceTwoBefore),
            EarlierFrameSampling(cameraMotion.sinceThreeBefore))
        guard !(sampling.0.isStill && sampling.1.isStill && sampling.2.isStill) else {
            minimumAbsoluteDifference(
                current: current, oneBefore: oneBefore, twoBefore: twoBefore, threeBefore: threeBefore, layout: layout,
                into: &motion)
            return
        }
        let needed = layout.minimumByteCount
        precondition(
            current.count >= needed && oneBefore.count >= needed && twoBefore.count >= needed
                && threeBefore.count >= needed && motion.count >= needed,
            "every plane must hold at least \(needed) bytes for \(layout)")
        let rows = sampling.0.rows(height: layout.height).clamped(to: sampling.1.rows(height: layout.height))
            .clamped(to: sampling.2.rows(height: layout.height))
        let columns = sampling.0.columns(width: layout.width).clamped(to: sampling.1.columns(width: layout.width))
            .clamped(to: sampling.2.columns(width: layout.width))
        for row in 0..<layout.height {
            let rowStart = row * layout.bytesPerRow
            guard rows.contains(row), !columns.isEmpty else {
                for index in rowStart..<(rowStart + layout.width) { motion[index] = 0 }
                continue
            }
            for index in rowStart..<(rowStart + columns.lowerBound) { motion[index] = 0 }
            for index in (rowStart + columns.upperBound)..<(rowStart + layout.width) { motion[index] = 0 }
            if columns.count >= ByteVector.scalarCount {
                alignedRow(
                    row, columns: columns, current: current, earlier: (oneBefore, twoBefore, threeBefore),
                    sampling: sampling, layout: layout, into: &motion)
            } else {
                for column in columns {
                    let now = current[rowStart + column]
                    motion[rowStart + column] = min(
                        sampling.0.change(now: now, column: column, row: row, earlier: oneBefore, layout: layout),
                        sampling.1.change(now: now, column: column, row: row, earlier: twoBefore, layout: layout),
                        sampling.2.change(now: now, column: column, row: row, earlier: threeBefore, layout: layout))
                }
            }
        }
    }

    /// The vector step of the moving-camera differencing over `columns` (at least 16) of one row.
    @inline(__always)
    private static func alignedRow(
        _ row: Int, columns: Range<Int>, current: Span<UInt8>, earlier: (Span<UInt8>, Span<UInt8>, Span<UInt8>),
        sampling: (EarlierFrameSampling, EarlierFrameSampling, EarlierFrameSampling), layout: PlaneLayout,
        into motion: inout MutableSpan<UInt8>
    ) {
        let rowStart = row * layout.bytesPerRow
        let now = current.bytes
        let earlierBytes = (earlier.0.bytes, earlier.1.bytes, earlier.2.bytes)
        /// The change from one earlier frame of the 16 pixels from `column` on.
        @inline(__always)
        func change(_ pixels: ByteVector, _ frame: RawSpan, _ sampling: EarlierFrameSampling, column: Int) -> ByteVector {
            let topLeft = (row + sampling.row) * layout.bytesPerRow + column + sampling.column
            let bottomLeft = topLeft + sampling.stepY * layout.bytesPerRow
            let a = frame.unsafeLoadUnaligned(fromByteOffset: topLeft, as: ByteVector.self)
            let b = frame.unsafeLoadUnaligned(fromByteOffset: topLeft + sampling.stepX, as: ByteVector.self)
            let c = frame.unsafeLoadUnaligned(fromByteOffset: bottomLeft, as: ByteVector.self)
            let d = frame.unsafeLoadUnaligned(fromByteOffset: bottomLeft + sampling.stepX, as: ByteVector.self)
            let low = ByteVector.minimum(ByteVector.minimum(a, b), ByteVector.minimum(c, d))
            let high = ByteVector.maximum(ByteVector.maximum(a, b), ByteVector.maximum(c, d))
            let blend = ByteVector.blend(
                ByteVector.blend(a, b, quarters: sampling.quartersX), ByteVector.blend(c, d, quarters: sampling.quartersX),
                quarters: sampling.quartersY)
            return ByteVector.change(of: pixels, from: blend, allowance: (high &- low) &>> EarlierFrameSampling.allowanceShift)
        }
        var motionBytes = motion.mutableBytes
        forEachChunkStart(coveringWidth: columns.count) { chunk in
            let column = columns.lowerBound + chunk
            let pixels = now.unsafeLoadUnaligned(fromByteOffset: rowStart + column, as: ByteVector.self)
            let least = ByteVector.minimum(
                ByteVector.minimum(
                    change(pixels, earlierBytes.0, sampling.0, column: column),
                    change(pixels, earlierBytes.1, sampling.1, column: column)),
                change(pixels, earlierBytes.2, sampling.2, column: column))
            motionBytes.storeBytes(of: least, toByteOffset: rowStart + column, as: ByteVector.self)
        }
    }

    /// The same, one pixel at a time, for planes narrower than one vector.
    private static func minimumAbsoluteDifferenceScalar(
        current: Span<UInt8>, oneBefore: Span<UInt8>, twoBefore: Span<UInt8>, threeBefore: Span<UInt8>,
        layout: PlaneLayout, into motion: inout MutableSpan<UInt8>
    ) {
        for row in 0..<layout.height {
            let rowStart = row * layout.bytesPerRow
            for index in rowStart..<(rowStart + layout.width) {
                let pixel = current[index]
                motion[index] = min(
                    ScalarBytes.absoluteDifference(pixel, oneBefore[index]),
                    ScalarBytes.absoluteDifference(pixel, twoBefore[index]),
                    ScalarBytes.absoluteDifference(pixel, threeBefore[index]))
            }
        }
    }
}
