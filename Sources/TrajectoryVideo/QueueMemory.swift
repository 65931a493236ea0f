import Foundation

/// The memory that the frames waiting in one or more ``DecodedFrameQueue``s take, and the lock
/// that guards it and the queues: the bytes their lookahead's budget is checked against, and
/// the buffers of frames already taken, kept for the next frames to copy into.
///
/// A queue alone has one of its own. Two decoding lanes share one (``DecodingLanes``), so that
/// their budget is for both together: the lane running ahead, whose frames wait while the
/// analysis takes the other lane's segment, may fill what the other is not using. Every queue
/// may still hold its lookahead's frames beyond the budget, so the lane whose frames the
/// analysis is taking never waits for the other's.
final class QueueMemory: @unchecked Sendable {
    /// Guards everything here and the state of every queue sharing it.
    let condition = NSCondition()
    /// Bytes of the planes queued in every queue sharing it.
    var queuedBytes = 0
    /// The segment the analysing side takes frames of (``LaneMerger``): a lane queues no more
    /// than the first frame of a segment further ahead than the next one.
    var analysedSegment = 0
    /// Buffers of copied frames already taken, for the next frames to copy into.
    private var spareBuffers: [(storage: UnsafeMutableRawPointer, byteCount: Int)] = []

    deinit {
        for spare in spareBuffers { spare.storage.deallocate() }
    }

    /// Makes room for the spares of another queue whose ring holds `slots` frames, so that
    /// keeping a spare never allocates while frames come. Call it before the queue is used.
    func reserveSpares(forSlots slots: Int) {
        condition.lock()
        spareBuffers.reserveCapacity(spareBuffers.capacity + slots)
        condition.unlock()
    }

    /// Keeps the buffer of a frame taken. Call it with `condition` locked.
    func keepSpare(_ storage: UnsafeMutableRawPointer, byteCount: Int) {
        spareBuffers.append((storage, byteCount))
    }

    /// The most recently kept spare buffer, if any. Call it with `condition` locked.
    func takeSpare() -> (storage: UnsafeMutableRawPointer, byteCount: Int)? {
        spareBuffers.popLast()
    }
}
