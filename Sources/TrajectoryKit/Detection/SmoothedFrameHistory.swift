/// The detector's own smoothed copies of the last few frames: the current one and those it is
/// compared with.
///
/// The caller's luma plane is only lent for one call, so every frame is smoothed into a buffer
/// owned here. The buffers form a ring: the oldest one is overwritten by the next frame, so no
/// frame is copied twice and nothing is allocated once the first frame of a given size has
/// arrived. Rows are padded to a multiple of 16 bytes; padding stays zero in every buffer.
struct SmoothedFrameHistory {
    /// How many frames are kept, the current one included.
    let capacity: Int
    /// Layout of the stored buffers: the frames' size, rows padded to whole vectors.
    private(set) var layout: PlaneLayout?
    /// How many frames are stored, at most `capacity`.
    private(set) var frameCount = 0
    private var frames: [[UInt8]]
    /// Where the current frame sits in `frames`.
    private var currentSlot = 0
    private var smoother = BinomialSmoother()

    init(capacity: Int) {
        precondition(capacity >= 1, "a history holds at least the current frame")
        self.capacity = capacity
        frames = [[UInt8]](repeating: [], count: capacity)
    }

    /// The stored frame `age` frames before the current one (0 is the current frame).
    ///
    /// Returns the buffer itself, not a copy; let go of it before the next ``append(_:layout:)``,
    /// or that call has to copy it.
    func frame(age: Int) -> [UInt8] {
        precondition(age >= 0 && age < frameCount, "frame \(age) before the current one is not stored")
        return frames[(currentSlot - age + capacity) % capacity]
    }

    /// Stores a smoothed copy of `luma` as the current frame, in place of the oldest one once
    /// the history is full. A frame of another size than the stored ones starts the history afresh.
    mutating func append(_ luma: Span<UInt8>, layout sourceLayout: PlaneLayout) {
        if layout?.width != sourceLayout.width || layout?.height != sourceLayout.height {
            start(width: sourceLayout.width, height: sourceLayout.height)
        }
        guard let layout else { return }
        currentSlot = (currentSlot + 1) % capacity
        // A span borrows the whole of `self` while it lives, so smooth into a buffer held
        // outside it (moving an array in and out is O(1) and does not copy its bytes).
        var frame: [UInt8] = []
        swap(&frame, &frames[currentSlot])
        do {
            var destination = frame.mutableSpan
            smoother.smooth(luma, layout: sourceLayout, into: &destination, destinationBytesPerRow: layout.bytesPerRow)
        }
        swap(&frame, &frames[currentSlot])
        frameCount = min(frameCount + 1, capacity)
    }

    /// Forgets every stored frame (the buffers are kept for reuse).
    mutating func removeAll() {
        frameCount = 0
    }

    private mutating func start(width: Int, height: Int) {
        let chunk = ByteVector.scalarCount
        let paddedWidth = (width + chunk - 1) / chunk * chunk
        for slot in frames.indices {
            frames[slot] = [UInt8](repeating: 0, count: paddedWidth * height)
        }
        layout = PlaneLayout(width: width, height: height, bytesPerRow: paddedWidth)
        frameCount = 0
    }
}
