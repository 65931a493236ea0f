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
        for row in 0..<layout.height {
            let rowStart = row * layout.bytesPerRow
            forEachChunkStart(coveringWidth: layout.width) { x in
                let offset = rowStart + x
                let pixels = now.unsafeLoadUnaligned(fromByteOffset: offset, as: ByteVector.self)
                let first = earlier.0.unsafeLoadUnaligned(fromByteOffset: offset, as: ByteVector.self)
                let second = earlier.1.unsafeLoadUnaligned(fromByteOffset: offset, as: ByteVector.self)
                let third = earlier.2.unsafeLoadUnaligned(fromByteOffset: offset, as: ByteVector.self)
                let change = ByteVector.minimum(
                    ByteVector.minimum(
                        ByteVector.absoluteDifference(pixels, first), ByteVector.absoluteDifference(pixels, second)),
                    ByteVector.absoluteDifference(pixels, third))
                motionBytes.storeBytes(of: change, toByteOffset: offset, as: ByteVector.self)
            }
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
