/// The blobs of the latest few analysed frames, newest first, so that a track can ask what the
/// things around its ball did over the last frames (see `CommonMotionTest`).
///
/// A ring of blob arrays whose storage is kept from frame to frame: it allocates only when a
/// frame holds more blobs than any before it.
struct RecentFrames {
    struct Frame {
        var stamp: FrameStamp
        /// The frame's size and where the camera had moved its picture.
        var size: FrameSize
        /// In the scene's coordinates.
        var blobs: [Blob]
        /// Whether each blob is a point of a confirmed trajectory.
        var isClaimed: [Bool]
        /// `blobs` by column, to find those near a point.
        var blobsByColumn = BlobColumnIndex()
        var index: Int { stamp.index }
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
        let empty = Frame(
            stamp: FrameStamp(index: 0, time: 0), size: FrameSize(width: 1, height: 1, cameraOffset: .zero),
            blobs: [], isClaimed: [])
        ring = Array(repeating: empty, count: capacity)
    }

    /// Stores the blobs of a new analysed frame, forgetting the oldest one when full.
    mutating func append(_ blobs: [Blob], frame: FrameStamp, size: FrameSize) {
        newest = (newest + 1) % capacity
        if blobs.count > min(ring[newest].blobs.capacity, ring[newest].isClaimed.capacity) {
            makeRoomInEverySlot(for: blobs.count)
        }
        ring[newest].stamp = frame
        ring[newest].size = size
        ring[newest].blobs.removeAll(keepingCapacity: true)
        ring[newest].blobs.append(contentsOf: blobs)
        ring[newest].isClaimed.removeAll(keepingCapacity: true)
        ring[newest].isClaimed.append(contentsOf: repeatElement(false, count: blobs.count))
        ring[newest].blobsByColumn.rebuild(blobs)
        count = min(count + 1, capacity)
    }

    /// The frame `age` analysed frames before the newest (0 is the newest); `age < count`.
    subscript(age age: Int) -> Frame {
        precondition(age >= 0 && age < count, "only \(count) frames are kept")
        return ring[(newest - age + capacity) % capacity]
    }

    /// Grows every slot at once when one frame holds more blobs than any before: each slot
    /// growing only when it meets such a frame itself would allocate now and then for as long
    /// as frames keep landing in slots that have not met one.
    private mutating func makeRoomInEverySlot(for count: Int) {
        let room = max(count, 2 * ring[newest].blobs.capacity)
        for slot in ring.indices {
            ring[slot].blobs.reserveCapacity(room)
            ring[slot].isClaimed.reserveCapacity(room)
            ring[slot].blobsByColumn.reserveCapacity(room)
        }
    }

    /// Where ``find(frame:from:below:)`` got to.
    enum Search {
        /// `age` is the frame's.
        case found
        /// The frame is not kept (it was not analysed); `age` is the next older frame's.
        case missing
        /// The frame is older than every frame looked at.
        case beyond
    }

    /// Moves `age` towards older frames, to the kept frame with index `frame` or, when that is
    /// not kept, the next older one; frames at `limit` or older are not looked at. A track's
    /// points walked newest first pass the same `age` on, so the whole walk is one pass.
    func find(frame: Int, from age: inout Int, below limit: Int) -> Search {
        while age < limit, self[age: age].index > frame { age += 1 }
        guard age < limit else { return .beyond }
        return self[age: age].index == frame ? .found : .missing
    }

    /// Marks blob `blob` of the frame `age` frames before the newest as a confirmed trajectory's point.
    mutating func claim(blob: Int, age: Int) {
        ring[(newest - age + capacity) % capacity].isClaimed[blob] = true
    }

    mutating func removeAll() {
        for slot in ring.indices { ring[slot].blobs.removeAll(keepingCapacity: true) }
        count = 0
    }
}
