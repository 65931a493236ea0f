import Foundation
import TrajectoryKit

/// Two decoders side by side, each decoding every other segment of the stream
/// (``SegmentBoundaries``) into a queue of its own, and the analysing side taking their frames
/// back in the stream's order.
///
/// Why: on two cores FFmpeg's frame threading gains little and loses more beside an analysis
/// that takes a core (its threads wait on one another's progress), so one decoder on one
/// thread bounds a run at FFmpeg's one-thread rate. Two decoders that share nothing run side by
/// side at twice it, and the analysis fills the gaps. The decoder ahead keeps its frames in its
/// queue until the analysis comes to them, so each queue may hold up to ``lookahead`` (README,
/// "Speed").
///
/// Each lane's reader opens the file itself and reads every packet, decoding only its own
/// segments; so lanes are for local files, read twice at little cost.
enum DecodingLanes {
    /// Two lanes, on a machine with more than one core.
    static var count: Int { ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1 }

    /// Each lane's queue, once the stream has a second segment: frames wait there, shrunk for
    /// analysis, while the analysis takes the other lane's segment. A segment is a keyframe
    /// interval, often one to ten seconds. The byte budget is for the two queues together
    /// (``QueueMemory``): the lane whose frames the analysis takes holds few, so the lane ahead
    /// may hold nearly all of these 128 MB, 246 frames of 1080p or 4K shrunk to 960×540 (the
    /// default analysis size) or 139 of 720p, and runs that far ahead at most. Each queue had 64
    /// MB of its own before: the lane ahead then stopped at half the depth for the same memory
    /// at most (README, "Speed"). Nor does a lane decode beyond the segment after the one the
    /// analysis takes (``DecodedFrameQueue``): where keyframes come often, the two queues hold
    /// about two segments' frames, not the whole budget.
    static let lookahead = DecodingLookahead(maximumFrames: 256, byteBudget: 128_000_000, framesBeyondBudget: 6)

    /// Whether two lanes pay from the start for frames of `width` × `height` analysed with
    /// `minimumLongSide`, one in `analysedFrameStep`: when the analysis costs far less than
    /// decoding, so that the two lanes and the analysis fit on two cores. That is so when the
    /// analysis shrinks the frames (1080p and larger), or takes only one frame in
    /// ``sparseAnalysisStep`` or fewer. At 720p, every frame analysed whole, the analysis may
    /// cost nearly as much as decoding, and then two lanes lose (walkers ×10, 0.84–0.89 s
    /// against 0.75–0.82 s with one decoder, three rounds; with the analysis almost free they
    /// took 0.53 s against one decoder's 0.70), besides copying every frame and taking more
    /// memory: there the second lane waits until the analysis is seen waiting for decoding
    /// (``SecondLaneTrigger``).
    static func pay(width: Int, height: Int, minimumLongSide: Int, analysedFrameStep: Int) -> Bool {
        analysedFrameStep >= sparseAnalysisStep
            || DetectTrajectoriesRequest.analysisReduction(width: width, height: height, minimumLongSide: minimumLongSide) > 1
    }

    /// Analysing one frame in this many or fewer leaves decoding nearly all the work, and two
    /// lanes pay at any size. Walkers ×10 (720p, a keyframe every 99 frames), five interleaved
    /// rounds, best wall time against `ffmpeg -threads 0`'s 0.48 s: one frame in 4 took 0.49 s
    /// in two lanes against 0.59 s with one decoder (and 0.54 s with FFmpeg's two frame threads
    /// in it); one frame in 2 took 0.59 s either way (24 November 2026).
    static let sparseAnalysisStep = 4

    /// Whether `uri` can be read by two readers at once: a local regular file.
    static func canReadTwice(_ uri: String) -> Bool {
        guard let path = FFmpegURL.localPath(of: uri) else { return false }
        return LocalFile(path: path)?.kind == .regular
    }

    /// Decodes `reader`'s lane (see ``VideoReader/decodeOnly(lane:sharing:atCut:)``) into
    /// `queue`, each frame copied and shrunk as the analysis will take it, until the stream
    /// ends, an error, or the queue is stopped. Returns how it ended and the segment it was in.
    ///
    /// The first lane passes `onAlternation`, called once the reader has read up to the
    /// segment where `shares` starts to alternate. Until then its frames are handed over whole
    /// where they can be, as with one decoder: the analysis takes them as they come, and the
    /// decoding thread, the busier at 1080p, is spared the shrinking. A frame that may wait
    /// long, in a lane running ahead, is copied, or it would hold the decoder's full-size
    /// picture meanwhile.
    static func decode(
        _ reader: inout VideoReader, into queue: DecodedFrameQueue, shares: SegmentShares, sizeLimit: FrameSizeLimit,
        minimumLongSide: Int, stopSignal: StopSignal, onAlternation: (() -> Void)? = nil
    ) -> (end: DecodingEnd, segment: Int) {
        var segment = 0
        var onAlternation = onAlternation
        do {
            while true {
                if let alternation = onAlternation, let start = shares.firstAlternatingSegment, reader.latestSegment >= start {
                    alternation()
                    onAlternation = nil
                }
                let beforeAlternation = onAlternation != nil
                let accepted = try reader.nextLaneFrame { plane, layout, place, handOver in
                    segment = place.segment
                    try sizeLimit.check(width: layout.width, height: layout.height)
                    // Placeholder stamps: the analysing side stamps the lanes' frames in order.
                    if beforeAlternation, let handOver {
                        return queue.push(
                            handingOver: handOver, layout: layout, stamp: FrameStamp(index: 0, time: 0), place: place)
                    }
                    return queue.push(
                        copyOf: plane, layout: layout, shrunkFor: minimumLongSide, stamp: FrameStamp(index: 0, time: 0),
                        place: place)
                }
                guard let accepted else { return (stopSignal.isRaised ? .stopped : .streamEnd, segment) }
                guard accepted else { return (.stopped, segment) }
            }
        } catch {
            return (.failed(error), segment)
        }
    }
}

/// The second lane: opens the input again on a thread of its own and decodes lane 1's
/// segments into its queue.
final class SecondDecodingLane: @unchecked Sendable {
    let queue: DecodedFrameQueue
    /// Its reader's frame count and warnings, once its queue says decoding has finished.
    private(set) var framesRead = 0
    private(set) var warnings: [String] = []
    /// Whether ``start(uri:networkTimeout:stopSignal:decoderThreads:loopFilter:sizeLimit:minimumLongSide:shares:)``
    /// was called. Set and read by the first lane's thread alone.
    private(set) var started = false

    init(queue: DecodedFrameQueue) {
        self.queue = queue
    }

    /// Starts the thread, decoding the segments `shares` gives lane 1.
    func start(
        uri: String, networkTimeout: Double, stopSignal: StopSignal, decoderThreads: Int, loopFilter: LoopFilter,
        sizeLimit: FrameSizeLimit, minimumLongSide: Int, shares: SegmentShares
    ) {
        started = true
        let thread = Thread { [self] in
            var end = DecodingEnd.stopped, segment = 0
            do throws(VideoError) {
                var reader = try VideoReader(
                    uri: uri, networkTimeout: networkTimeout, stopSignal: stopSignal, decoderThreads: decoderThreads,
                    loopFilter: loopFilter, sizeLimit: sizeLimit)
                if reader.decodeOnly(lane: 1, sharing: shares) {
                    (end, segment) = DecodingLanes.decode(
                        &reader, into: queue, shares: shares, sizeLimit: sizeLimit, minimumLongSide: minimumLongSide,
                        stopSignal: stopSignal)
                } else {
                    // The first lane cut the same file: only a file changed in between gets here.
                    end = .failed(VideoError(.readFailed, uri: uri, detail: "the file changed while it was read"))
                    segment = 1
                }
                framesRead = reader.framesRead
                warnings = reader.warnings
            } catch {
                end = .failed(error)
                segment = 1
            }
            queue.finish(end, inSegment: segment)
        }
        thread.name = "trajectories decoding 2"
        thread.start()
    }
}

/// The analysing side of two lanes: takes their frames in the stream's order, segment by
/// segment, and stamps them as one reader would have. Used by the analysing thread alone.
final class LaneMerger {
    private let queues: [DecodedFrameQueue]
    private let shares: SegmentShares
    private var segment = 0
    private var clock: FrameClock
    private var framesTaken = 0
    private var timestampsWentBack = 0

    init(queues: [DecodedFrameQueue], shares: SegmentShares, clock: FrameClock) {
        self.queues = queues
        self.shares = shares
        self.clock = clock
    }

    /// Waits for the stream's next frame and lends its plane to `body`, as
    /// ``DecodedFrameQueue/withOldest(_:)`` does for one queue.
    func withNextFrame<Result>(_ body: (Span<UInt8>, DecodedFrameQueue.QueuedFrame) throws -> Result) throws -> Result? {
        while true {
            // A lane queues a frame of a segment only after the segment's lane was decided.
            let queue = queues[shares.lane(of: segment)]
            switch queue.waitForNext() {
            case .stopped:
                return nil
            case .frame(let head) where head == segment:
                return try queue.withOldest { plane, frame in
                    var frame = frame
                    let (stamp, wentBack) = clock.stamp(index: framesTaken, timestamp: frame.place?.timestamp)
                    if wentBack { timestampsWentBack += 1 }
                    framesTaken += 1
                    frame.stamp = stamp
                    return try body(plane, frame)
                }
            case .frame:
                moveOn()  // the lane is on to its next segment: this one is over
            case .ended(let failedInSegment?) where failedInSegment <= segment:
                return try queue.withOldest(body)  // throws the error, the frames before it taken
            case .ended:
                if queues.allSatisfy({ if case .ended(nil) = $0.waitForNext() { true } else { false } }) { return nil }
                moveOn()
            }
        }
    }

    /// Goes on to the next segment, and lets the lanes decode the one after it.
    private func moveOn() {
        segment += 1
        // The queues share one memory, which holds the lanes back.
        queues[0].analysisReached(segment: segment)
    }

    /// Whether every frame of the stream was taken.
    var hasDeliveredWholeStream: Bool { queues.allSatisfy(\.hasDeliveredWholeStream) }

    /// The warnings only the frames of every lane together tell: timestamps going back, and a
    /// file that ends before the frames its container lists.
    func warnings(info: VideoInfo, framesRead: Int) -> [String] {
        var warnings: [String] = []
        if timestampsWentBack > 0 {
            warnings.append(VideoReader.timestampWentBackWarning
                + (timestampsWentBack > 1 ? " (repeated \(timestampsWentBack) times)" : ""))
        }
        if let endsEarly = VideoReader.endsEarlyWarning(info: info, framesRead: framesRead, clock: clock) {
            warnings.append(endsEarly)
        }
        return warnings
    }
}
