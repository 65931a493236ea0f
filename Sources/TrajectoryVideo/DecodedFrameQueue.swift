import Foundation
import TrajectoryKit

/// A bounded queue of decoded luma planes between a decoding thread and the thread that
/// analyses them, so that decoding the next frames overlaps analysing this one.
///
/// It holds a fixed ring of `capacity` plane buffers. The decoding side copies each frame's
/// luma plane, shrunk for analysis, into a free buffer (``push(width:height:shrunkBy:stamp:copy:)``),
/// waiting while every buffer is
/// full; the analysing side borrows the oldest one (``withOldest(_:)``) and gives it back when
/// done. Buffers are allocated for the first frame of a size and reused after that, so a
/// steady stream allocates nothing per frame, and memory stays at `capacity` planes however
/// long the video is.
///
/// All bookkeeping happens under one lock; pixels are written and read outside it, each
/// buffer belonging to one side at a time.
final class DecodedFrameQueue: @unchecked Sendable {
    /// One plane buffer of the ring and the frame it holds.
    private struct Slot {
        var storage: UnsafeMutableRawPointer?
        var byteCount = 0
        var frame = QueuedFrame(
            layout: PlaneLayout(width: 1, height: 1, bytesPerRow: 1), shrunkBy: 1, width: 1, height: 1,
            stamp: FrameStamp(index: 0, time: 0))
    }

    /// What is known of a queued frame besides its pixels.
    struct QueuedFrame {
        /// The layout of the plane in the buffer: the frame shrunk `shrunkBy` times.
        var layout: PlaneLayout
        var shrunkBy: Int
        /// The frame's own size.
        var width: Int
        var height: Int
        var stamp: FrameStamp
    }

    let capacity: Int
    private let condition = NSCondition()
    private let slots: UnsafeMutablePointer<Slot>
    /// The slot of the oldest queued frame, and how many are queued (including one being analysed).
    private var oldest = 0
    private var queued = 0
    private var producerFinished = false
    private var producerFailure: (any Error)?
    private var consumerStopped = false

    /// Rows of the copied planes start on this many bytes, which SIMD code likes.
    static let rowAlignment = 64

    init(capacity: Int) {
        precondition(capacity >= 2, "decoding overlaps analysis only with at least two buffers")
        self.capacity = capacity
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(), count: capacity)
    }

    deinit {
        for index in 0..<capacity { slots[index].storage?.deallocate() }
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    // MARK: - Decoding side

    /// Waits for a free buffer and lets `copy` write a `width` × `height` frame shrunk
    /// `shrunkBy` times into it, rows `bytesPerRow` of the layout it is given apart, then queues
    /// the frame.
    ///
    /// - Returns: false when the analysing side has stopped: decoding should stop too.
    func push(
        width: Int, height: Int, shrunkBy: Int, stamp: FrameStamp,
        copy: (UnsafeMutablePointer<UInt8>, PlaneLayout) throws -> Void
    ) rethrows -> Bool {
        condition.lock()
        while queued == capacity && !consumerStopped { condition.wait() }
        if consumerStopped {
            condition.unlock()
            return false
        }
        let index = (oldest + queued) % capacity
        condition.unlock()

        // The slot is free: only this side touches it until it is queued.
        let size = FrameShrinking.shrunkSize(width: width, height: height, by: shrunkBy)
        let bytesPerRow = (size.width + Self.rowAlignment - 1) / Self.rowAlignment * Self.rowAlignment
        let layout = PlaneLayout(width: size.width, height: size.height, bytesPerRow: bytesPerRow)
        let needed = size.height * bytesPerRow
        if slots[index].byteCount < needed {
            slots[index].storage?.deallocate()
            slots[index].storage = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: Self.rowAlignment)
            slots[index].byteCount = needed
        }
        try copy(slots[index].storage!.assumingMemoryBound(to: UInt8.self), layout)
        slots[index].frame = QueuedFrame(layout: layout, shrunkBy: shrunkBy, width: width, height: height, stamp: stamp)

        condition.lock()
        queued += 1
        condition.signal()
        condition.unlock()
        return true
    }

    /// Marks the end of the stream, or the error that ended it.
    func finish(failure: (any Error)?) {
        condition.lock()
        producerFinished = true
        producerFailure = failure
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Analysing side

    /// Waits for the oldest decoded frame and lends its plane to `body`, then frees its buffer.
    ///
    /// - Returns: what `body` returns, or nil once the stream has ended and every frame was taken.
    /// - Throws: the error that stopped decoding, once the frames before it have been taken, or
    ///   what `body` throws.
    func withOldest<Result>(_ body: (Span<UInt8>, QueuedFrame) throws -> Result) throws -> Result? {
        condition.lock()
        while queued == 0 && !producerFinished { condition.wait() }
        guard queued > 0 else {
            let failure = producerFailure
            condition.unlock()
            if let failure { throw failure }
            return nil
        }
        let slot = slots[oldest]
        condition.unlock()

        defer {
            condition.lock()
            oldest = (oldest + 1) % capacity
            queued -= 1
            condition.signal()
            condition.unlock()
        }
        let pixels = UnsafeBufferPointer(
            start: UnsafePointer(slot.storage!.assumingMemoryBound(to: UInt8.self)),
            count: slot.frame.layout.minimumByteCount)
        return try body(pixels.span, slot.frame)
    }

    /// Tells the decoding side to stop (the analysis ended early). It stops at its next frame,
    /// or at the stream's end; ``waitUntilFinished()`` waits for that.
    func stop() {
        condition.lock()
        consumerStopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the decoding side has called ``finish(failure:)``.
    func waitUntilFinished() {
        condition.lock()
        while !producerFinished { condition.wait() }
        condition.unlock()
    }
}
