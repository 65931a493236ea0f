import CFFmpeg
import Foundation
import TrajectoryKit

/// A bounded queue of decoded luma planes between a decoding thread and the thread that
/// analyses them, so that decoding the next frames overlaps analysing this one.
///
/// It holds a fixed ring of slots, as many as its ``DecodingLookahead`` lets frames wait (or a
/// wider one it may be given later), and fills as many of them as the lookahead's byte budget
/// allows. The decoding side either hands
/// a decoded frame over whole, when its luma plane can be read where the decoder put it
/// (``push(handingOver:layout:stamp:)``: no pixel is copied, and the analysing side shrinks it
/// if it must), or copies a converted plane, shrunk for analysis, into a slot's buffer
/// (``push(width:height:shrunkBy:stamp:copy:)``); either waits while the queue is full. The
/// analysing side borrows the oldest plane (``withOldest(_:)``) and gives it back when done,
/// which lets go of a handed-over frame. Buffers and frame holders are allocated for the
/// first frames and reused after that (FFmpeg recycles the decoder's picture buffers once
/// let go of), so a steady stream allocates nothing per frame, and memory stays at what the
/// lookahead allows however long the video is: a copied frame's buffer, and a handed-over
/// frame's holder, go back to a stack of spares when the frame is taken, so the ring's turning
/// gives no more slots buffers or holders than frames ever waited at once.
///
/// All bookkeeping happens under one lock; pixels are written and read outside it, each
/// slot belonging to one side at a time.
final class DecodedFrameQueue: @unchecked Sendable {
    /// One slot of the ring and the frame it holds.
    private struct Slot {
        /// The buffer converted planes are copied into.
        var storage: UnsafeMutableRawPointer?
        var byteCount = 0
        /// Holds a handed-over decoded frame while it is queued; blank otherwise.
        var heldFrame: UnsafeMutablePointer<AVFrame>?
        /// Where the queued plane starts: in `storage` or in `heldFrame`'s picture.
        var plane: UnsafePointer<UInt8>?
        var frame = QueuedFrame(
            layout: PlaneLayout(width: 1, height: 1, bytesPerRow: 1), shrunkBy: 1, width: 1, height: 1,
            stamp: FrameStamp(index: 0, time: 0))
    }

    /// What is known of a queued frame besides its pixels.
    struct QueuedFrame {
        /// The layout of the plane: the frame shrunk `shrunkBy` times.
        var layout: PlaneLayout
        var shrunkBy: Int
        /// The frame's own size.
        var width: Int
        var height: Int
        var stamp: FrameStamp
        /// Where a lane's frame belongs in the stream (``DecodingLanes``); nil for the frames of
        /// one reader, stamped already.
        var place: VideoReader.LanePlace? = nil
    }

    /// How many frames may wait; ``waitLonger(_:)`` may raise it.
    private(set) var lookahead: DecodingLookahead
    /// Slots in the ring: as many frames as the widest lookahead lets wait.
    private let capacity: Int
    /// The queued frames' bytes, the spare buffers of frames taken, and the lock: the queue's
    /// own, or shared with another queue (``QueueMemory``).
    private let memory: QueueMemory
    private var condition: NSCondition { memory.condition }
    /// Buffers allocated for copied frames so far: the memory the queue has taken.
    private(set) var buffersAllocated = 0
    /// Holders of handed-over frames already taken, blank, for the next frames handed over.
    private var spareHolders: [UnsafeMutablePointer<AVFrame>] = []
    /// Frame holders allocated so far.
    private(set) var holdersAllocated = 0
    private let slots: UnsafeMutablePointer<Slot>
    /// The slot of the oldest queued frame, and how many are queued (including one being analysed).
    private var oldest = 0
    private var queued = 0
    private var producerFinished = false
    private var producerFailure: (any Error)?
    /// The segment a lane's decoding was in when it failed.
    private var producerFailureSegment = 0
    /// The segment of the last lane frame queued.
    private var lastSegmentQueued: Int?
    /// Whether decoding ended at the stream's end rather than stopped or failed.
    private var producerReachedStreamEnd = false
    private var consumerStopped = false
    /// Nanoseconds the analysing side has spent waiting for a frame, in all.
    private var analysisWaited: UInt64 = 0

    /// Rows of the copied planes start on this many bytes, which SIMD code likes.
    static let rowAlignment = 64

    /// A queue of `lookahead`, whose ``waitLonger(_:)`` may raise it to `widestLookahead`. Its
    /// lookahead's byte budget is for the frames of every queue sharing `memory`, when given.
    init(lookahead: DecodingLookahead, widestLookahead: DecodingLookahead? = nil, sharing memory: QueueMemory? = nil) {
        self.lookahead = lookahead
        capacity = max(lookahead.maximumFrames, widestLookahead?.maximumFrames ?? 0)
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(), count: capacity)
        self.memory = memory ?? QueueMemory()
        self.memory.reserveSpares(forSlots: capacity)
        spareHolders.reserveCapacity(capacity)
    }

    /// Whether this queue's byte budget is for `other`'s frames too.
    func sharesMemory(with other: DecodedFrameQueue) -> Bool { memory === other.memory }

    /// Lets as many frames wait as `lookahead` allows, from now on, within the widest lookahead
    /// the queue was made for.
    func waitLonger(_ lookahead: DecodingLookahead) {
        precondition(lookahead.maximumFrames <= capacity, "the ring was made for fewer frames")
        condition.lock()
        self.lookahead = lookahead
        condition.broadcast()
        condition.unlock()
    }

    deinit {
        for spare in spareHolders {
            var holder: UnsafeMutablePointer<AVFrame>? = spare
            av_frame_free(&holder)
        }
        for index in 0..<capacity {
            slots[index].storage?.deallocate()
            av_frame_free(&slots[index].heldFrame)
        }
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
        width: Int, height: Int, shrunkBy: Int, stamp: FrameStamp, place: VideoReader.LanePlace? = nil,
        copy: (UnsafeMutablePointer<UInt8>, PlaneLayout) throws -> Void
    ) rethrows -> Bool {
        guard let index = waitForFreeSlot(segment: place?.segment) else { return false }
        try fill(index, width: width, height: height, shrunkBy: shrunkBy, stamp: stamp, place: place, copy: copy)
        return true
    }

    /// Waits for a free slot and queues the decoded frame of `handOver` by taking it over
    /// (`av_frame_move_ref`), its luma plane `layout` read in place until the analysing side
    /// has done with it.
    ///
    /// - Returns: false when the analysing side has stopped: decoding should stop too.
    func push(
        handingOver handOver: VideoReader.FrameHandOver, layout: PlaneLayout, stamp: FrameStamp,
        place: VideoReader.LanePlace? = nil
    ) -> Bool {
        guard let index = waitForFreeSlot(segment: place?.segment) else { return false }
        if slots[index].heldFrame == nil { slots[index].heldFrame = takeSpareHolder() }
        if slots[index].heldFrame == nil, let holder = av_frame_alloc() {
            slots[index].heldFrame = holder
            holdersAllocated += 1
        }
        guard let holder = slots[index].heldFrame else {
            // No memory for even a frame holder: copy the plane as a converted one is.
            fill(index, width: layout.width, height: layout.height, shrunkBy: 1, stamp: stamp, place: place) {
                destination, copyLayout in
                PlaneCopy.rows(of: handOver.plane, layout: layout, into: destination, bytesPerRow: copyLayout.bytesPerRow)
            }
            return true
        }
        av_frame_move_ref(holder, handOver.frame)
        Self.letGo(ofBuffersOtherThanThatOf: handOver.plane, in: holder)
        slots[index].plane = handOver.plane
        slots[index].frame = QueuedFrame(
            layout: layout, shrunkBy: 1, width: layout.width, height: layout.height, stamp: stamp, place: place)
        enqueue(index)
        return true
    }

    /// Lets go of every buffer of `frame` but the one holding `plane`, and forgets the planes
    /// they held.
    ///
    /// The analysis reads only the luma plane, and FFmpeg's decoders take each plane from a
    /// buffer pool of its own: the colour planes of a waiting frame can go back to their pool at
    /// once, so that only the luma pool grows with the frames waiting. At 1080p that is 1 MB a
    /// waiting frame, a third of it. A frame whose planes share one buffer keeps it whole.
    private static func letGo(ofBuffersOtherThanThatOf plane: UnsafePointer<UInt8>, in frame: UnsafeMutablePointer<AVFrame>) {
        withUnsafeMutableBytes(of: &frame.pointee.buf) { bytes in
            let buffers = bytes.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self)
            // A plane in no buffer of the frame's own (in extended_buf, say): keep them all.
            guard let keptIndex = buffers.firstIndex(where: { $0.map { holds($0, plane) } ?? false }) else { return }
            let kept = buffers[keptIndex]!
            withUnsafeMutableBytes(of: &frame.pointee.data) { bytes in
                // A plane pointer left behind would point into a buffer let go of.
                let planes = bytes.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                for index in planes.indices where planes[index].map({ !holds(kept, $0) }) ?? false { planes[index] = nil }
            }
            for index in buffers.indices where index != keptIndex { av_buffer_unref(&buffers[index]) }
        }
    }

    /// Whether `address` lies in `buffer`'s bytes.
    private static func holds(_ buffer: UnsafeMutablePointer<AVBufferRef>, _ address: UnsafePointer<UInt8>) -> Bool {
        let data: UnsafeMutablePointer<UInt8>? = buffer.pointee.data
        guard let start = data.map({ UnsafePointer($0) }) else { return false }
        return address >= start && address < start + buffer.pointee.size
    }

    /// Waits for a free buffer and copies `plane` into it, shrunk as much as a request with
    /// `minimumLongSide` will analyse it shrunk
    /// (``DetectTrajectoriesRequest/analysisReduction(width:height:minimumLongSide:)``), then
    /// queues the frame.
    ///
    /// - Returns: false when the analysing side has stopped: decoding should stop too.
    func push(
        copyOf plane: Span<UInt8>, layout: PlaneLayout, shrunkFor minimumLongSide: Int, stamp: FrameStamp,
        place: VideoReader.LanePlace? = nil
    ) -> Bool {
        let reduction = DetectTrajectoriesRequest.analysisReduction(
            width: layout.width, height: layout.height, minimumLongSide: minimumLongSide)
        return push(width: layout.width, height: layout.height, shrunkBy: reduction, stamp: stamp, place: place) {
            destination, copyLayout in
            Self.copy(plane, layout: layout, shrunkBy: reduction, to: destination, layout: copyLayout)
        }
    }

    /// Copies a plane, shrunk `reduction` times, into a buffer laid out as `destinationLayout`.
    static func copy(
        _ plane: Span<UInt8>, layout: PlaneLayout, shrunkBy reduction: Int, to destination: UnsafeMutablePointer<UInt8>,
        layout destinationLayout: PlaneLayout
    ) {
        if reduction > 1 {
            var shrunk = UnsafeMutableBufferPointer(start: destination, count: destinationLayout.minimumByteCount).mutableSpan
            FrameShrinking.shrink(
                plane, layout: layout, by: reduction, into: &shrunk, destinationBytesPerRow: destinationLayout.bytesPerRow)
            return
        }
        plane.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            PlaneCopy.rows(of: base, layout: layout, into: destination, bytesPerRow: destinationLayout.bytesPerRow)
        }
    }

    /// Lets `copy` write a frame into free slot `index`'s buffer (see
    /// ``push(width:height:shrunkBy:stamp:copy:)``) and queues it.
    private func fill(
        _ index: Int, width: Int, height: Int, shrunkBy: Int, stamp: FrameStamp, place: VideoReader.LanePlace? = nil,
        copy: (UnsafeMutablePointer<UInt8>, PlaneLayout) throws -> Void
    ) rethrows {
        // The slot is free: only this side touches it until it is queued.
        let size = FrameShrinking.shrunkSize(width: width, height: height, by: shrunkBy)
        let bytesPerRow = (size.width + Self.rowAlignment - 1) / Self.rowAlignment * Self.rowAlignment
        let layout = PlaneLayout(width: size.width, height: size.height, bytesPerRow: bytesPerRow)
        let needed = size.height * bytesPerRow
        if slots[index].storage == nil, let spare = takeSpareBuffer() {
            (slots[index].storage, slots[index].byteCount) = spare
        }
        if slots[index].byteCount < needed {
            slots[index].storage?.deallocate()
            slots[index].storage = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: Self.rowAlignment)
            slots[index].byteCount = needed
            buffersAllocated += 1
        }
        let destination = slots[index].storage!.assumingMemoryBound(to: UInt8.self)
        try copy(destination, layout)
        slots[index].plane = UnsafePointer(destination)
        slots[index].frame = QueuedFrame(
            layout: layout, shrunkBy: shrunkBy, width: width, height: height, stamp: stamp, place: place)
        enqueue(index)
    }

    /// The most recently freed frame holder, if any.
    private func takeSpareHolder() -> UnsafeMutablePointer<AVFrame>? {
        condition.lock()
        defer { condition.unlock() }
        return spareHolders.popLast()
    }

    /// The most recently freed spare buffer, if any.
    private func takeSpareBuffer() -> (UnsafeMutableRawPointer, Int)? {
        condition.lock()
        defer { condition.unlock() }
        return memory.takeSpare()
    }

    /// Waits until the queue takes another frame, of lane `segment` if a lane's; nil once the
    /// analysing side has stopped.
    private func waitForFreeSlot(segment: Int?) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !(lookahead.takesAnother(queuedFrames: queued, queuedBytes: memory.queuedBytes) && !isTooFarAhead(segment))
            && !consumerStopped
        {
            condition.wait()
        }
        if let segment { lastSegmentQueued = segment }
        return consumerStopped ? nil : (oldest + queued) % capacity
    }

    /// Whether a lane's frame of `segment` must wait for the analysis to come nearer: when the
    /// segment lies beyond the one after the analysis's, and this is not its first frame.
    ///
    /// Why: a lane needs to run only one segment ahead for both lanes to be busy while decoding
    /// holds the run back: one decodes the segment the analysis takes, the other the next.
    /// Further ahead, it only banks frames while the analysis holds the run back, and every
    /// buffer filled for the first time costs page faults. On `carried-by-hand.mp4` (a keyframe
    /// every 30 frames) the lanes ran four segments ahead into their whole budget and took 0.68–0.73
    /// s against one decoder's 0.65–0.70; held to one segment, 0.64–0.66 s (Benchmarks/speed-history.md).
    /// The first frame of a segment is queued all the same: it is what shows the analysing side
    /// that the lane's previous segment is over (``LaneMerger``), so the two never wait on each other.
    private func isTooFarAhead(_ segment: Int?) -> Bool {
        guard let segment, segment == lastSegmentQueued else { return false }
        return segment > memory.analysedSegment + 1
    }

    /// Tells the lanes sharing this queue's memory that the analysing side now takes frames of
    /// `segment`.
    func analysisReached(segment: Int) {
        condition.lock()
        memory.analysedSegment = max(memory.analysedSegment, segment)
        condition.broadcast()
        condition.unlock()
    }

    /// Queues the frame just written into slot `index`, the one after the last queued frame.
    private func enqueue(_ index: Int) {
        condition.lock()
        queued += 1
        memory.queuedBytes += slots[index].frame.layout.minimumByteCount
        // Broadcast: a shared lock may have the other queue's decoding side waiting too.
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the end of decoding: at the stream's end, stopped, or by an error, which a lane
    /// met in `segment`.
    func finish(_ end: DecodingEnd, inSegment segment: Int = 0) {
        condition.lock()
        producerFinished = true
        switch end {
        case .streamEnd: producerReachedStreamEnd = true
        case .stopped: break
        case .failed(let error):
            producerFailure = error
            producerFailureSegment = segment
        }
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Analysing side

    /// Waits for the oldest decoded frame and lends its plane to `body`, then frees its buffer.
    ///
    /// - Returns: what `body` returns, or nil once the stream has ended and every frame was
    ///   taken, or once ``stop()`` was called (frames still queued are then left).
    /// - Throws: the error that stopped decoding, once the frames before it have been taken, or
    ///   what `body` throws.
    func withOldest<Result>(_ body: (Span<UInt8>, QueuedFrame) throws -> Result) throws -> Result? {
        condition.lock()
        waitForFrameOrEnd()
        if consumerStopped {
            condition.unlock()
            return nil
        }
        guard queued > 0 else {
            let failure = producerFailure
            condition.unlock()
            if let failure { throw failure }
            return nil
        }
        let index = oldest
        let slot = slots[index]
        condition.unlock()

        defer {
            // Lets the decoder have a handed-over frame's picture back.
            if let held = slot.heldFrame { av_frame_unref(held) }
            condition.lock()
            if let storage = slot.storage {
                memory.keepSpare(storage, byteCount: slot.byteCount)
                slots[index].storage = nil
                slots[index].byteCount = 0
            }
            if let held = slot.heldFrame {
                spareHolders.append(held)
                slots[index].heldFrame = nil
            }
            oldest = (oldest + 1) % capacity
            queued -= 1
            // Frees room in the shared budget too: wake every side that may wait for it.
            memory.queuedBytes -= slot.frame.layout.minimumByteCount
            condition.broadcast()
            condition.unlock()
        }
        let pixels = UnsafeBufferPointer(start: slot.plane!, count: slot.frame.layout.minimumByteCount)
        return try body(pixels.span, slot.frame)
    }

    /// What comes next from the queue, as ``waitForNext()`` finds it.
    enum Next {
        /// A frame of a lane's segment (0 for one reader's frames).
        case frame(segment: Int)
        /// Decoding ended and every frame was taken; an error ended it in `failedInSegment`.
        case ended(failedInSegment: Int?)
        /// The analysing side stopped the queue.
        case stopped
    }

    /// Waits until a frame is queued or decoding has ended, and says which, without taking
    /// the frame: ``withOldest(_:)`` takes it.
    func waitForNext() -> Next {
        condition.lock()
        defer { condition.unlock() }
        waitForFrameOrEnd()
        if consumerStopped { return .stopped }
        if queued > 0 { return .frame(segment: slots[oldest].frame.place?.segment ?? 0) }
        return .ended(failedInSegment: producerFailure == nil ? nil : producerFailureSegment)
    }

    /// Waits, the lock held, until a frame is queued, decoding has ended or the queue is
    /// stopped, and adds the time it waited to ``analysisWaitedNanoseconds``.
    private func waitForFrameOrEnd() {
        guard queued == 0 && !producerFinished && !consumerStopped else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        repeat { condition.wait() } while queued == 0 && !producerFinished && !consumerStopped
        analysisWaited += DispatchTime.now().uptimeNanoseconds - start
    }

    /// Nanoseconds the analysing side has spent waiting for frames from this queue, in all:
    /// what tells whether decoding holds the run back (``SecondLaneTrigger``).
    var analysisWaitedNanoseconds: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return analysisWaited
    }

    /// Whether the analysing side has taken every frame of the stream to its end: a stop that
    /// came after that cut nothing short.
    var hasDeliveredWholeStream: Bool {
        condition.lock()
        defer { condition.unlock() }
        return producerReachedStreamEnd && queued == 0
    }

    /// Tells the decoding side to stop (the analysis ended early), and ends the analysing
    /// side's wait for a frame. The decoding side stops at its next frame, or at the stream's
    /// end; ``waitUntilFinished()`` waits for that.
    func stop() {
        condition.lock()
        consumerStopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the decoding side has called ``finish(_:)``.
    func waitUntilFinished() {
        condition.lock()
        while !producerFinished { condition.wait() }
        condition.unlock()
    }
}

/// How decoding into a ``DecodedFrameQueue`` ended.
enum DecodingEnd {
    /// Every frame of the stream was decoded (a truncated file's included).
    case streamEnd
    /// The analysing side stopped it, or it never began (the input did not open).
    case stopped
    /// An error ended it; the analysing side gets it after the frames before it.
    case failed(any Error)
}
