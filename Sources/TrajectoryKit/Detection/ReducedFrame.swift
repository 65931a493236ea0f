/// A frame shrunk by averaging square blocks of pixels: what a large frame is analysed at
/// (``BlobDetector/Configuration/analysisReduction``), and on which the camera's motion is
/// first looked for over a wide range at little cost (``CameraMotionEstimator``).
///
/// Rows are packed `layout.bytesPerRow` apart, padded to whole vectors. The buffer is kept
/// between frames: nothing is allocated once the first frame of a given size has been reduced.
struct ReducedFrame {
    private(set) var pixels: [UInt8] = []
    /// The reduced frame's size; nil until a frame has been reduced.
    private(set) var layout: PlaneLayout?

    /// Replaces the contents with `source` shrunk four times in each direction: each pixel the
    /// mean of a 4 × 4 block as ``FrameShrinking`` takes it (columns and rows that do not fill a
    /// block are left out).
    mutating func reduceByFour(_ source: Span<UInt8>, layout sourceLayout: PlaneLayout) {
        reduce(source, layout: sourceLayout, by: 4)
    }

    /// Replaces the contents with `source` shrunk twice in each direction: each pixel the
    /// rounded mean of a 2 × 2 block (a last odd column or row is left out).
    mutating func reduceByTwo(_ source: Span<UInt8>, layout sourceLayout: PlaneLayout) {
        reduce(source, layout: sourceLayout, by: 2)
    }

    private mutating func reduce(_ source: Span<UInt8>, layout sourceLayout: PlaneLayout, by reduction: Int) {
        let size = FrameShrinking.shrunkSize(width: sourceLayout.width, height: sourceLayout.height, by: reduction)
        guard size.width > 0, size.height > 0 else {
            layout = nil
            return
        }
        let reduced = resize(width: size.width, height: size.height)
        // A mutable span of a stored array borrows all of `self`: fill a buffer moved out of it.
        var output: [UInt8] = []
        swap(&output, &pixels)
        defer { swap(&output, &pixels) }
        var outputSpan = output.mutableSpan
        FrameShrinking.shrink(
            source, layout: sourceLayout, by: reduction, into: &outputSpan, destinationBytesPerRow: reduced.bytesPerRow)
    }

    /// Replaces the contents with `source` shrunk twice in each direction: each pixel the
    /// rounded mean of a 2 × 2 block.
    mutating func reduceByTwo(_ source: ReducedFrame) {
        guard let sourceLayout = source.layout else {
            layout = nil
            return
        }
        reduce(source.pixels.span, layout: sourceLayout, by: 2)
    }

    /// Sets the layout for a reduced size and makes the buffer large enough for it.
    private mutating func resize(width: Int, height: Int) -> PlaneLayout {
        let chunk = ByteVector.scalarCount
        let reduced = PlaneLayout(width: width, height: height, bytesPerRow: (width + chunk - 1) / chunk * chunk)
        if pixels.count < reduced.bytesPerRow * height {
            pixels = [UInt8](repeating: 0, count: reduced.bytesPerRow * height)
        }
        layout = reduced
        return reduced
    }

    /// The sum over the pixels at least `margin` from every edge of this frame of
    /// min(|self(x, y) − earlier(x + offset.x, y + offset.y)|, `cap`), a measure of how badly
    /// `earlier` matches this frame when shifted by `offset` (whose components must not exceed
    /// `margin`). The cap keeps an object moving across the frame from weighing more than the
    /// pixels it covers. Both frames must have the same layout.
    func sumOfCappedDifferences(to earlier: ReducedFrame, offset: (x: Int, y: Int), margin: Int, cap: UInt8) -> Int {
        guard let layout, earlier.layout == layout else { preconditionFailure("frames of different sizes") }
        precondition(abs(offset.x) <= margin && abs(offset.y) <= margin, "offset beyond the margin")
        let columns = margin..<(layout.width - margin)
        guard !columns.isEmpty, margin < layout.height - margin else { return 0 }
        let now = pixels.span.bytes, then = earlier.pixels.span.bytes
        var total = 0
        for row in margin..<(layout.height - margin) {
            let rowStart = row * layout.bytesPerRow
            let earlierRowStart = (row + offset.y) * layout.bytesPerRow + offset.x
            guard columns.count >= ByteVector.scalarCount else {
                for column in columns {
                    total += Int(
                        min(cap, ScalarBytes.absoluteDifference(pixels[rowStart + column], earlier.pixels[earlierRowStart + column])))
                }
                continue
            }
            let capVector = ByteVector(repeating: cap)
            // Each 16-bit lane gains at most 510 per vector, so the sums are emptied every 128.
            var partialSum = SIMD8<UInt16>(), vectors = 0
            forEachChunkStart(coveringWidth: columns.count) { chunk in
                let column = columns.lowerBound + chunk
                let a = now.unsafeLoadUnaligned(fromByteOffset: rowStart + column, as: ByteVector.self)
                let b = then.unsafeLoadUnaligned(fromByteOffset: earlierRowStart + column, as: ByteVector.self)
                partialSum &+= ByteVector.minimum(ByteVector.absoluteDifference(a, b), capVector).sumOfEachPair
                vectors += 1
                if vectors == 128 {
                    total += Int(SIMD8<UInt32>(truncatingIfNeeded: partialSum).wrappedSum())
                    partialSum = SIMD8<UInt16>()
                    vectors = 0
                }
            }
            total += Int(SIMD8<UInt32>(truncatingIfNeeded: partialSum).wrappedSum())
        }
        return total
    }
}

extension SIMD16<UInt8> {
    /// The rounded mean of lanes 0–3, 4–7, 8–11 and 12–15.
    @inline(__always)
    var meanOfEachFour: SIMD4<UInt8> {
        let words = unsafeBitCast(self, to: SIMD4<UInt32>.self)
        let byte = SIMD4<UInt32>(repeating: 0xFF)
        let sum = (words & byte) &+ ((words &>> 8) & byte) &+ ((words &>> 16) & byte) &+ (words &>> 24)
        return SIMD4<UInt8>(truncatingIfNeeded: (sum &+ 2) &>> 2)
    }

    /// The sums of lanes 0 and 1, 2 and 3, … 14 and 15 (each 16-bit lane the sum of the two
    /// bytes it is made of).
    @inline(__always)
    var sumOfEachPair: SIMD8<UInt16> {
        let halfWords = unsafeBitCast(self, to: SIMD8<UInt16>.self)
        return (halfWords & 0xFF) &+ (halfWords &>> 8)
    }
}

extension SIMD8<UInt16> {
    /// The low byte of each lane, packed into the eight bytes of a word in lane order
    /// (little-endian). Narrowing lane by lane compiles to eight extractions; this is a few
    /// shifts and masks on two 64-bit words.
    @inline(__always)
    var packedBytes: UInt64 {
        var words = unsafeBitCast(self, to: SIMD2<UInt64>.self) & 0x00FF_00FF_00FF_00FF
        words = (words | (words &>> 8)) & 0x0000_FFFF_0000_FFFF
        words = (words | (words &>> 16)) & 0x0000_0000_FFFF_FFFF
        return words.x | (words.y << 32)
    }
}
