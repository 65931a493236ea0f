import Foundation
import Synchronization
import TrajectoryKit

/// Opens and decodes a video on a thread of its own into a ``DecodedFrameQueue``, so that
/// FFmpeg decodes the next frames while the caller's thread analyses this one.
///
/// A frame whose luma plane is the decoder's own (8-bit luma, shown unrotated: nearly every
/// camera's and encoder's video) is handed over to the queue whole, without a copy, and the
/// analysing thread reads and shrinks it there. Any other frame's plane, converted or turned,
/// is copied into the queue's reused buffers, shrunk on the way as much as the request will
/// analyse it shrunk (``DetectTrajectoriesRequest/analysisReduction(width:height:minimumLongSide:)``).
/// Decoding stops at the end of the stream, at an error (which the queue hands on after the
/// frames before it), or when the analysing side stops the queue.
///
/// A local H.264 or HEVC file is decoded in two lanes instead (``DecodingLanes``): this thread
/// decodes every other segment of the stream, a second thread the others, each into a queue of
/// its own, frames copied and shrunk; ``withNextFrame(_:)`` takes them back in order. Where two
/// lanes do not pay from the start (720p analysed whole), this thread decodes every segment
/// until a cut where the analysis has been waiting for it (``SecondLaneTrigger``), and the
/// lanes alternate from there (``SegmentShares``).
final class DecodingThread: @unchecked Sendable {
    private let queue: DecodedFrameQueue
    /// The second lane, when one may be started: a local file on a machine of several cores.
    private let secondLane: SecondDecodingLane?
    /// Set, before the opening is settled, when the stream is decoded in two lanes.
    private var merger: LaneMerger?
    /// Which lane decodes each segment: set with ``merger``.
    private var laneShares: SegmentShares?
    private var info: VideoInfo?
    /// This thread's reader's frame count and warnings when decoding ended. Read only after the
    /// queue says decoding has finished; until then the thread owns them.
    private var ownFramesRead = 0
    private var ownWarnings: [String] = []
    /// The request's ``DetectTrajectoriesRequest/minimumAnalysisLongSide`` when decoding started.
    private let minimumAnalysisLongSide: Int
    /// How far apart the analysed frames will be, which decides whether two lanes pay.
    private let plannedSpacing: PlannedAnalysisSpacing
    /// Checked on every frame, before a buffer is sized for it: a stream may change size part way.
    private let sizeLimit: FrameSizeLimit
    /// Raised by ``interrupt()``: the reader's network reads then give up at once.
    private let stopSignal: StopSignal
    /// Whether ``stop()`` waits for the thread (see ``InputLocation/readsCanBeStopped(_:)``).
    private let waitsWhenStopped: Bool
    /// How opening the input went, once the thread knows.
    private let opening = OpeningOutcome()
    private let uri: String

    /// Starts opening `uri` on a thread of its own, then decoding it on `decoderThreads` of
    /// FFmpeg's threads into a new queue of as many frames as `lookahead` allows, each converted
    /// one shrunk as a request with `minimumAnalysisLongSide` would analyse it; a frame over
    /// `sizeLimit` ends decoding with its error. ``waitUntilOpen()`` says how the opening went.
    /// With `lanes` of 2, a stream that can be cut is decoded in two lanes, each of
    /// ``DecodingLanes/lookahead`` from the first cut on, when they pay for its frames and for
    /// the `plannedSpacing` of the frames analysed.
    ///
    /// The opening is on the thread too because FFmpeg may wait there for as long as the input
    /// sends nothing (a pipe whose writer is silent), and a stop must not wait with it.
    init(
        uri: String, networkTimeout: Double, decoderThreads: Int, loopFilter: LoopFilter,
        lookahead: DecodingLookahead, sizeLimit: FrameSizeLimit, minimumAnalysisLongSide: Int,
        plannedSpacing: PlannedAnalysisSpacing, lanes: Int = 1
    ) {
        self.uri = uri
        stopSignal = StopSignal()
        self.sizeLimit = sizeLimit
        self.minimumAnalysisLongSide = minimumAnalysisLongSide
        self.plannedSpacing = plannedSpacing
        self.waitsWhenStopped = InputLocation.readsCanBeStopped(uri)
        let mayUseLanes = lanes > 1 && DecodingLanes.canReadTwice(uri)
        // Two lanes' queues share one budget (``DecodingLanes/lookahead``).
        let laneMemory = mayUseLanes ? QueueMemory() : nil
        self.queue = DecodedFrameQueue(
            lookahead: lookahead, widestLookahead: mayUseLanes ? DecodingLanes.lookahead : nil, sharing: laneMemory)
        secondLane = laneMemory.map {
            SecondDecodingLane(queue: DecodedFrameQueue(lookahead: DecodingLanes.lookahead, sharing: $0))
        }
        let thread = Thread { [self] in
            openAndDecode(networkTimeout: networkTimeout, decoderThreads: decoderThreads, loopFilter: loopFilter)
        }
        thread.name = "trajectories decoding"
        thread.start()
    }

    /// Waits until the input is open and returns what the video is.
    ///
    /// - Throws: the ``VideoError`` that opening it ended with, or
    ///   ``VideoError/Kind/stoppedBeforeOpening`` when ``interrupt()`` came first.
    func waitUntilOpen() throws(VideoError) -> VideoInfo {
        let outcome = opening.wait()
        // Decided by the stop, not by which of the two threads got there first.
        if stopSignal.isRaised { throw VideoError(.stoppedBeforeOpening, uri: uri) }
        switch outcome {
        case .opened(let info): return info
        case .failed(let error): throw error
        case .pending, .abandoned: throw VideoError(.stoppedBeforeOpening, uri: uri)
        }
    }

    /// Tells the thread to stop at its next frame, and waits until it has, input closed,
    /// unless a read of the input may wait on its writer for ever (``InputLocation/readsCanBeStopped(_:)``):
    /// then the thread stops, and closes the input, once the next read returns. Call it however
    /// the analysis ends; after the stream's end it returns at once. Returns whether it waited,
    /// so that the thread's counts and warnings may be read.
    @discardableResult
    func stop() -> Bool {
        interrupt()
        if waitsWhenStopped {
            queue.waitUntilFinished()
            secondLane?.queue.waitUntilFinished()
        }
        return waitsWhenStopped
    }

    /// Waits for the stream's next frame and lends its plane to `body`, then lets its buffer go.
    ///
    /// - Returns: what `body` returns, or nil once the stream has ended and every frame was
    ///   taken, or once the run was stopped.
    /// - Throws: the error that stopped decoding, once the frames before it have been taken, or
    ///   what `body` throws.
    func withNextFrame<Result>(_ body: (Span<UInt8>, DecodedFrameQueue.QueuedFrame) throws -> Result) throws -> Result? {
        if let merger { return try merger.withNextFrame(body) }
        return try queue.withOldest(body)
    }

    /// Whether the stream is decoded in two lanes, from the start or once the analysis waits
    /// for decoding (``SecondLaneTrigger``): known once it is open.
    var decodesInLanes: Bool { merger != nil }

    /// Whether both lanes decode from the start, as for frames the analysis shrinks: known once
    /// the stream is open.
    var lanesAlternateFromTheStart: Bool { laneShares?.alternatesFromTheStart ?? false }

    /// The segment the two lanes began to alternate at, once decoding has finished; nil when
    /// one lane decoded every frame.
    var firstAlternatingSegment: Int? { laneShares?.firstAlternatingSegment }

    /// Whether the two lanes' queues, if there are two, have one byte budget between them.
    var lanesShareOneBudget: Bool { secondLane.map { queue.sharesMemory(with: $0.queue) } ?? false }

    /// Whether every frame of the stream was taken: a stop that came after that cut nothing short.
    var hasDeliveredWholeStream: Bool { merger?.hasDeliveredWholeStream ?? queue.hasDeliveredWholeStream }

    /// Frames decoded, once decoding has finished.
    var framesRead: Int { ownFramesRead + (merger == nil ? 0 : secondLane?.framesRead ?? 0) }

    /// The warnings of decoding, once it has finished: with two lanes, each lane's, the
    /// second's not said already, and those of the two together.
    var warnings: [String] {
        guard let merger, let secondLane, let info else { return ownWarnings }
        return LaneWarnings.merged(ownWarnings, secondLane.warnings) + merger.warnings(info: info, framesRead: framesRead)
    }

    /// Stops opening or decoding and ends the analysing side's wait for the video to open or
    /// for the next frame, without waiting for the thread: callable from any thread while the
    /// run goes on.
    func interrupt() {
        stopSignal.raise()
        queue.stop()
        secondLane?.queue.stop()
        // A network open gives up on the signal and a file's never waits; a pipe's may wait on
        // its writer for ever, so its caller stops waiting for it instead.
        if !waitsWhenStopped { opening.abandon() }
    }

    private func openAndDecode(networkTimeout: Double, decoderThreads: Int, loopFilter: LoopFilter) {
        var end = DecodingEnd.stopped, segment = 0
        do throws(VideoError) {
            var reader = try VideoReader(
                uri: uri, networkTimeout: networkTimeout, stopSignal: stopSignal, decoderThreads: decoderThreads,
                loopFilter: loopFilter, sizeLimit: sizeLimit)
            if let secondLane {
                let paysFromTheStart = DecodingLanes.pay(
                    width: reader.info.width, height: reader.info.height, minimumLongSide: minimumAnalysisLongSide,
                    analysedFrameStep: plannedSpacing.frameStep(atFrameRate: reader.info.frameRate))
                let laneShares = SegmentShares(alternatingFrom: paysFromTheStart ? 1 : nil)
                let startSecondLane = { [self] in
                    secondLane.start(
                        uri: uri, networkTimeout: networkTimeout, stopSignal: stopSignal, decoderThreads: decoderThreads,
                        loopFilter: loopFilter, sizeLimit: sizeLimit, minimumLongSide: minimumAnalysisLongSide,
                        shares: laneShares)
                }
                // Otherwise this lane decodes alone, as one decoder, until a cut where the
                // analysis has been waiting for it; the second lane starts with that segment.
                let atCut = paysFromTheStart ? nil : startingAtCutWhereItPays(secondLane, sharing: laneShares, startSecondLane)
                if reader.decodeOnly(lane: 0, sharing: laneShares, atCut: atCut) {
                    self.laneShares = laneShares
                    merger = LaneMerger(queues: [queue, secondLane.queue], shares: laneShares, clock: reader.clockAtStart)
                    info = reader.info
                    // At once, to decode the second segment while this lane decodes the first.
                    if paysFromTheStart { startSecondLane() }
                }
            }
            opening.settle(.success(reader.info))
            if let secondLane, let shares = laneShares {
                // This lane's frames may wait long only once it runs ahead, from the first
                // segment the lanes alternate on: a clip of one keyframe interval takes no
                // more memory than with one decoder.
                (end, segment) = DecodingLanes.decode(
                    &reader, into: queue, shares: shares, sizeLimit: sizeLimit, minimumLongSide: minimumAnalysisLongSide,
                    stopSignal: stopSignal
                ) { [queue] in queue.waitLonger(DecodingLanes.lookahead) }
                ownFramesRead = reader.framesRead
                ownWarnings = reader.warnings
                // A second lane never started has nothing to give: the stream ended with this one's.
                if !secondLane.started {
                    if case .streamEnd = end { secondLane.queue.finish(.streamEnd) } else { secondLane.queue.finish(.stopped) }
                }
            } else {
                end = decode(reader)
            }
        } catch {
            opening.settle(.failure(error))
        }
        // Nothing will fill an unused second queue: it is finished, so that a stop need not wait.
        if merger == nil { secondLane?.queue.finish(.stopped) }
        // Last: the analysing side may read the counts, and return, once it sees this.
        queue.finish(end, inSegment: segment)
    }

    /// What the first lane calls at each cut while it decodes alone: starts `secondLane` with
    /// `start`, from the segment the cut begins, once the analysis has waited long enough for
    /// frames since the last cut (``SecondLaneTrigger``).
    private func startingAtCutWhereItPays(
        _ secondLane: SecondDecodingLane, sharing shares: SegmentShares, _ start: @escaping () -> Void
    ) -> (Int) -> Void {
        var trigger = SecondLaneTrigger(time: DispatchTime.now().uptimeNanoseconds)
        return { [queue] segment in
            guard !secondLane.started,
                  trigger.secondLanePays(time: DispatchTime.now().uptimeNanoseconds, waited: queue.analysisWaitedNanoseconds),
                  shares.alternate(from: segment)
            else { return }
            start()
        }
    }

    /// Decodes every frame of `reader` into the queue, until the stream ends, an error, or the
    /// queue is stopped; keeps its frame count and warnings, and closes it.
    private func decode(_ reader: consuming VideoReader) -> DecodingEnd {
        var reader = reader
        defer {
            ownFramesRead = reader.framesRead
            ownWarnings = reader.warnings
        }
        let queue = self.queue, minimumLongSide = minimumAnalysisLongSide, sizeLimit = self.sizeLimit
        do {
            while true {
                let accepted = try reader.nextFrame(handingOver: { plane, layout, stamp, handOver in
                    try sizeLimit.check(width: layout.width, height: layout.height)
                    if let handOver {
                        // The decoder's own plane: queued as it is, and shrunk, if at all, by the
                        // analysing side. This thread only decodes, which on two cores is as much
                        // as one thread does in the time the other analyses a frame.
                        return queue.push(handingOver: handOver, layout: layout, stamp: stamp)
                    }
                    return queue.push(copyOf: plane, layout: layout, shrunkFor: minimumLongSide, stamp: stamp)
                })
                // A read that a stop cut short ends the frames too, and is no end of the stream.
                guard let accepted else { return stopSignal.isRaised ? .stopped : .streamEnd }
                guard accepted else { return .stopped }
            }
        } catch {
            return .failed(error)
        }
    }
}

/// How opening a ``DecodingThread``'s input went: settled once by the thread, waited for by
/// the caller, or abandoned by a stop that will not wait for it.
private final class OpeningOutcome: Sendable {
    enum State: Sendable {
        case pending
        case opened(VideoInfo)
        case failed(VideoError)
        case abandoned
    }

    private let state = Mutex(State.pending)
    private let decided = DispatchSemaphore(value: 0)

    /// Records how the opening went, unless the wait for it was abandoned.
    func settle(_ result: Result<VideoInfo, VideoError>) {
        switch result {
        case .success(let info): decide(.opened(info))
        case .failure(let error): decide(.failed(error))
        }
    }

    /// Ends the wait with no outcome.
    func abandon() { decide(.abandoned) }

    /// Waits for the first of ``settle(_:)`` and ``abandon()``, and returns what it decided.
    func wait() -> State {
        decided.wait()
        decided.signal()  // for any later wait
        return state.withLock { $0 }
    }

    private func decide(_ outcome: State) {
        let first = state.withLock { state in
            guard case .pending = state else { return false }
            state = outcome
            return true
        }
        if first { decided.signal() }
    }
}
