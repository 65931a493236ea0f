/// The detector's own smoothed copies of the last four frames: the current one and the three
/// it is compared with.
///
/// The caller's luma plane is only lent for one call, so every frame is smoothed into a buffer
/// owned here. The buffers rotate roles (swapping arrays is O(1)), so no frame is copied twice
/// and nothing is allocated once the first frame of a given size has arrived.
/// Rows are padded to a multiple of 16 bytes; padding stays zero in every buffer.
struct SmoothedFrameHistory {
    /// How many frames differencing needs: the current one and three before it.
    static let capacity = 4

    /// Layout of the stored buffers: the frames' size, rows padded to whole vectors.
    private(set) var layout: PlaneLayout?
    /// How many frames are stored, at most `capacity`.
    private(set) var frameCount = 0
    private(set) var current: [UInt8] = []
    private(set) var oneBefore: [UInt8] = []
    private(set) var twoBefore: [UInt8] = []
    private(set) var threeBefore: [UInt8] = []
    private var smoother = BinomialSmoother()

    /// Whether differencing has the frames it needs.
    var isFull: Bool { frameCount == Self.capacity }

    /// Stores a smoothed copy of `luma` as the current frame. A frame of another size than the
    /// stored ones starts the history afresh.
    mutating func append(_ luma: Span<UInt8>, layout sourceLayout: PlaneLayout) {
        if layout?.width != sourceLayout.width || layout?.height != sourceLayout.height {
            start(width: sourceLayout.width, height: sourceLayout.height)
        }
        guard let layout else { return }
        // The oldest buffer becomes the current frame's.
        swap(&threeBefore, &twoBefore)
        swap(&twoBefore, &oneBefore)
        swap(&oneBefore, &current)
        // A span borrows the whole of `self` while it lives, so smooth into a buffer held
        // outside it (moving an array in and out is O(1) and does not copy its bytes).
        var frame: [UInt8] = []
        swap(&frame, &current)
        do {
            var destination = frame.mutableSpan
            smoother.smooth(luma, layout: sourceLayout, into: &destination, destinationBytesPerRow: layout.bytesPerRow)
        }
        swap(&frame, &current)
        frameCount = min(frameCount + 1, Self.capacity)
    }

    /// Forgets every stored frame (the buffers are kept for reuse).
    mutating func removeAll() {
        frameCount = 0
    }

    private mutating func start(width: Int, height: Int) {
        let chunk = ByteVector.scalarCount
        let paddedWidth = (width + chunk - 1) / chunk * chunk
        let byteCount = paddedWidth * height
        current = [UInt8](repeating: 0, count: byteCount)
        oneBefore = current
        twoBefore = current
        threeBefore = current
        layout = PlaneLayout(width: width, height: height, bytesPerRow: paddedWidth)
        frameCount = 0
    }
}
