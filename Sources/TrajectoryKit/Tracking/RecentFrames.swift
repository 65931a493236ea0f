/// The blobs of the latest few analysed frames, newest first, so that a track can ask what the
/// things around its ball did over the last frames (see `CommonMotionTest`).
///
/// A ring of blob arrays whose storage is kept from frame to frame: after the first frames
/// it allocates nothing unless a frame holds more blobs than any before it.
struct RecentFrames {
    struct Frame {
        var index: Int
        var blobs: [Blob]
    }

    /// How many frames are kept, the current one included.
    let capacity: Int
    private var ring: [Frame]
    /// Slot of the newest frame in `ring`.
    private var newest = 0
    /// Frames stored so far, at most `capacity`.
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity >= 1, "keep at least the current frame")
        self.capacity = capacity
        ring = Array(repeating: Frame(index: 0, blobs: []), count: capacity)
    }

    /// Stores the blobs of a new analysed frame, forgetting the oldest one when full.
    mutating func append(_ blobs: [Blob], frame: Int) {
        newest = (newest + 1) % capacity
        ring[newest].index = frame
        ring[newest].blobs.removeAll(keepingCapacity: true)
        ring[newest].blobs.append(contentsOf: blobs)
        count = min(count + 1, capacity)
    }

    /// The frame `age` analysed frames before the newest (0 is the newest); `age < count`.
    subscript(age age: Int) -> Frame {
        precondition(age >= 0 && age < count, "only \(count) frames are kept")
        return ring[(newest - age + capacity) % capacity]
    }

    mutating func removeAll() {
        for slot in ring.indices { ring[slot].blobs.removeAll(keepingCapacity: true) }
        count = 0
    }
}
