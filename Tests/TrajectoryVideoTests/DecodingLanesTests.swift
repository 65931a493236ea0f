import CFFmpeg
import Foundation
import Synchronization
import TestSupport
import Testing
import TrajectoryKit
@testable import TrajectoryVideo

/// Two decoders, each taking every other segment of a stream, must give exactly the frames one
/// decoder gives, in the same order and with the same times: the analysis, and so every result,
/// depends on it.
@Suite("Decoding in two lanes")
struct DecodingLanesTests {
    /// 960×540, analysed shrunk by two with this analysis size, so two lanes pay.
    static let minimumLongSide = 400
    static let frameCount = 120

    /// An H.264 MP4 of `frameCount` frames with B-frames and a keyframe every 30 frames: IDR
    /// pictures (a closed GOP), or with `openGOP` ones that later pictures may refer across.
    static func writeClip(to path: String, openGOP: Bool = false, extra: [String] = []) throws {
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=960x540:rate=30", "-frames:v", String(frameCount),
             "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
             "-bf", "2", "-pix_fmt", "yuv420p"]
                + (openGOP ? ["-x264-params", "open-gop=1"] : []) + extra + [path])
    }

    /// A new temporary directory, kept as long as the caller holds it, with a clip of
    /// ``writeClip(to:openGOP:extra:)`` in it, and the clip's path.
    static func clipInNewDirectory() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.file("gops.mp4")
        try writeClip(to: path)
        return (directory, path)
    }

    /// A frame as the analysis would get it: its plane shrunk for analysis, summed, and its stamp.
    struct AnalysedFrame: Equatable {
        var checksum: UInt64
        var width: Int
        var height: Int
        var stamp: FrameStamp
    }

    struct Decoded {
        var frames: [AnalysedFrame] = []
        var segments: Set<Int> = []
        /// Whether the stream went to two lanes, both decoding from the start or the second
        /// waiting until it pays.
        var inLanes = false
        var lanesAlternateFromTheStart = false
        /// The segment the lanes began to alternate at; nil when one lane decoded every frame.
        var firstAlternatingSegment: Int?
        /// Whether the two lanes' queues have one byte budget between them.
        var lanesShareOneBudget = false
        var framesRead = 0
        var warnings: [String] = []
    }

    /// Seconds a decode of the test clip may take before it is taken to have stalled: each takes
    /// well under one.
    static let stallLimit = 60.0

    /// Every frame of `path` through a decoding thread of `lanes` lanes, for an analysis of
    /// `minimumLongSide` and `plannedSpacing`, with `lookahead`; `analysing` is called with
    /// each frame's index as the analysis would spend its time on it.
    static func decode(
        _ path: String, lanes: Int, minimumLongSide: Int = minimumLongSide,
        plannedSpacing: PlannedAnalysisSpacing = PlannedAnalysisSpacing(spacing: 0, suitsSlowMotion: false),
        lookahead: DecodingLookahead = .default, analysing: (Int) -> Void = { _ in }
    ) throws -> Decoded {
        let thread = DecodingThread(
            uri: path, networkTimeout: 30, decoderThreads: 1, loopFilter: .applied, lookahead: lookahead,
            sizeLimit: FrameSizeLimit(uri: path, maximumPixels: 1 << 24), minimumAnalysisLongSide: minimumLongSide,
            plannedSpacing: plannedSpacing, lanes: lanes)
        defer { thread.stop() }
        // Lanes and the analysing side that waited on each other for ever must fail the test,
        // not stall the whole run (a test's time limit cannot end a thread's wait).
        let stalled = Atomic<Bool>(false)
        let watchdog = DispatchWorkItem {
            stalled.store(true, ordering: .sequentiallyConsistent)
            thread.interrupt()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + stallLimit, execute: watchdog)
        defer { watchdog.cancel() }
        let info = try thread.waitUntilOpen()
        let reduction = DetectTrajectoriesRequest.analysisReduction(
            width: info.width, height: info.height, minimumLongSide: minimumLongSide)
        var decoded = Decoded(
            inLanes: thread.decodesInLanes, lanesAlternateFromTheStart: thread.lanesAlternateFromTheStart,
            lanesShareOneBudget: thread.lanesShareOneBudget)
        while let frame = try thread.withNextFrame({ plane, frame in
            (analysed(plane, frame, reduction: reduction), frame.place?.segment ?? 0)
        }) {
            analysing(decoded.frames.count)
            decoded.frames.append(frame.0)
            decoded.segments.insert(frame.1)
        }
        let wasStopped = stalled.load(ordering: .sequentiallyConsistent)
        #expect(!wasStopped, "decoding stalled: stopped after \(stallLimit) s")
        decoded.framesRead = thread.framesRead
        decoded.warnings = thread.warnings
        decoded.firstAlternatingSegment = thread.firstAlternatingSegment
        return decoded
    }

    /// The frame shrunk `reduction` times, as the analysis takes it (a lane's frames come
    /// shrunk already), summed.
    ///
    /// Cheap even in a debug build, where the trigger tests need the "analysis" to take far
    /// less time than decoding: a plane that needs no shrinking is not copied, and each row is
    /// summed by the standard library's `Hasher`, which is built optimized. (Its seed differs
    /// between processes, so sums are compared only within a test.)
    static func analysed(_ plane: Span<UInt8>, _ frame: DecodedFrameQueue.QueuedFrame, reduction: Int) -> AnalysedFrame {
        var hasher = Hasher()
        func sumRows(of pixels: UnsafeBufferPointer<UInt8>, layout: PlaneLayout) {
            for row in 0..<layout.height {
                let start = row * layout.bytesPerRow
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: pixels[start..<(start + layout.width)])))
            }
        }
        if frame.shrunkBy < reduction {
            let size = FrameShrinking.shrunkSize(width: frame.layout.width, height: frame.layout.height, by: reduction)
            let layout = PlaneLayout(width: size.width, height: size.height, bytesPerRow: size.width)
            var shrunk = [UInt8](repeating: 0, count: layout.minimumByteCount)
            shrunk.withUnsafeMutableBufferPointer { destination in
                DecodedFrameQueue.copy(
                    plane, layout: frame.layout, shrunkBy: reduction, to: destination.baseAddress!, layout: layout)
            }
            shrunk.withUnsafeBufferPointer { sumRows(of: $0, layout: layout) }
        } else {
            plane.withUnsafeBufferPointer { sumRows(of: $0, layout: frame.layout) }
        }
        return AnalysedFrame(
            checksum: UInt64(bitPattern: Int64(hasher.finalize())), width: frame.width, height: frame.height,
            stamp: frame.stamp)
    }

    @Test("two lanes give the frames one decoder gives, in order, with the same times")
    func sameFramesAsOneDecoder() throws {
        let (directory, path) = try Self.clipInNewDirectory()
        defer { withExtendedLifetime(directory) {} }
        let one = try Self.decode(path, lanes: 1)
        let two = try Self.decode(path, lanes: 2)
        #expect(!one.inLanes)
        #expect(two.inLanes && two.lanesAlternateFromTheStart)
        #expect(two.firstAlternatingSegment == 1)
        #expect(two.lanesShareOneBudget)
        #expect(two.segments == [0, 1, 2, 3], "cut at each of the three later IDR pictures")
        Self.expectEveryFrame(of: two, asDecodedBy: one)
    }

    /// Expects `lanes` to have given the whole clip's frames as `one` decoder did, with no warning.
    static func expectEveryFrame(of lanes: Decoded, asDecodedBy one: Decoded, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(one.frames.count == frameCount, sourceLocation: sourceLocation)
        #expect(lanes.frames == one.frames, sourceLocation: sourceLocation)
        #expect(lanes.framesRead == frameCount, sourceLocation: sourceLocation)
        #expect(lanes.warnings.isEmpty, "\(lanes.warnings)", sourceLocation: sourceLocation)
    }

    @Test("frames analysed whole are decoded in two lanes from the start only when the analysis takes one in 4 or fewer")
    func sparseAnalysisUsesLanes() throws {
        let (directory, path) = try Self.clipInNewDirectory()
        defer { withExtendedLifetime(directory) {} }
        // The 960×540 frames are analysed whole: two lanes pay only for a sparse analysis.
        let whole = 960
        let everyFrame = try Self.decode(path, lanes: 2, minimumLongSide: whole)
        let everyThird = try Self.decode(
            path, lanes: 2, minimumLongSide: whole, plannedSpacing: PlannedAnalysisSpacing(spacing: 2.5 / 30, suitsSlowMotion: false))
        let everyFourth = try Self.decode(
            path, lanes: 2, minimumLongSide: whole, plannedSpacing: PlannedAnalysisSpacing(spacing: 3.5 / 30, suitsSlowMotion: false))
        #expect(everyFrame.inLanes && !everyFrame.lanesAlternateFromTheStart)
        #expect(everyThird.inLanes && !everyThird.lanesAlternateFromTheStart)
        #expect(everyFourth.lanesAlternateFromTheStart)
        #expect(everyFourth.segments == [0, 1, 2, 3])
        #expect(everyFrame.frames.count == Self.frameCount)
        #expect(everyFourth.frames == everyFrame.frames)
    }

    @Test("an analysis that waits for decoding gets a second lane from the next cut, with the frames one decoder gives")
    func secondLaneOnceAnalysisWaits() throws {
        let (directory, path) = try Self.clipInNewDirectory()
        defer { withExtendedLifetime(directory) {} }
        // Analysed whole, so the second lane starts only once it pays; this analysis takes
        // next to no time, so it waits for decoding from the first frame.
        let whole = 960
        let one = try Self.decode(path, lanes: 1, minimumLongSide: whole)
        let two = try Self.decode(path, lanes: 2, minimumLongSide: whole)
        #expect(two.inLanes && !two.lanesAlternateFromTheStart)
        #expect(two.firstAlternatingSegment == 1)
        #expect(two.segments == [0, 1, 2, 3])
        Self.expectEveryFrame(of: two, asDecodedBy: one)
    }

    @Test("an analysis slower than decoding keeps one lane; once it is quicker, the second joins at a later cut")
    func secondLaneJoinsLater() throws {
        let (directory, path) = try Self.clipInNewDirectory()
        defer { withExtendedLifetime(directory) {} }
        let whole = 960
        // Four frames ahead at most, so that decoding keeps close to the analysis: 20 ms a
        // frame for the first 40 (far slower than decoding), none after. The cuts come at
        // frames 30, 60 and 90; by the second the analysis has been quick for a few frames
        // only, and by the third for all of the last segment.
        let close = DecodingLookahead(maximumFrames: 4, byteBudget: 0, framesBeyondBudget: 4)
        let one = try Self.decode(path, lanes: 1, minimumLongSide: whole)
        let two = try Self.decode(path, lanes: 2, minimumLongSide: whole, lookahead: close) { index in
            if index < 40 { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(two.firstAlternatingSegment == 3)
        Self.expectEveryFrame(of: two, asDecodedBy: one)
    }

    @Test("an open GOP's keyframes, which later pictures refer across, are not cut at")
    func openGOPIsNotCut() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("open.mp4")
        try Self.writeClip(to: path, openGOP: true)
        let one = try Self.decode(path, lanes: 1)
        let two = try Self.decode(path, lanes: 2)
        #expect(two.inLanes)
        #expect(two.segments == [0])
        #expect(one.frames.count == Self.frameCount)
        #expect(two.frames == one.frames)
    }

    @Test("a truncated file still gives every frame decoded, with the warning that it ends early")
    func truncatedFile() throws {
        let directory = try TemporaryDirectory()
        let whole = directory.file("whole.mp4"), cut = directory.file("cut.mp4")
        // The index first, so the cut loses frames only, not the index.
        try Self.writeClip(to: whole, extra: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let one = try Self.decode(cut, lanes: 1)
        let two = try Self.decode(cut, lanes: 2)
        #expect(two.inLanes)
        #expect(one.frames.count > 30 && one.frames.count < Self.frameCount)
        #expect(two.frames == one.frames)
        #expect(two.warnings.contains { $0.hasPrefix("the file ends early: decoded \(one.frames.count) of the 120 frames") },
                "\(two.warnings)")
        #expect(Set(two.warnings) == Set(one.warnings), "each said once, as by one decoder")
    }

    @Test("a truncated file read by one lane waiting for a second warns as one decoder does")
    func truncatedFileOneLane() throws {
        let directory = try TemporaryDirectory()
        let whole = directory.file("whole.mp4"), cut = directory.file("cut.mp4")
        try Self.writeClip(to: whole, extra: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        // An analysis far slower than decoding: the second lane never pays.
        let slowly: (Int) -> Void = { _ in Thread.sleep(forTimeInterval: 0.01) }
        let one = try Self.decode(cut, lanes: 1, minimumLongSide: 960, analysing: slowly)
        let two = try Self.decode(cut, lanes: 2, minimumLongSide: 960, analysing: slowly)
        #expect(two.inLanes && two.firstAlternatingSegment == nil)
        #expect(one.frames.count > 30 && one.frames.count < Self.frameCount)
        #expect(two.frames == one.frames)
        #expect(Set(two.warnings) == Set(one.warnings), "\(two.warnings) against \(one.warnings)")
        #expect(one.warnings.contains { $0.hasPrefix("the file ends early: decoded \(one.frames.count) of the 120 frames") },
                "\(one.warnings)")
    }

    @Test(
        "results are the same with one decoder or two, with a region of interest or none",
        // The second crops 784 of the 960 columns: the first lane's frames, handed over whole
        // until the cut where the second starts, are cropped to the pixels of its shrunk ones.
        arguments: [NormalizedRect.full, NormalizedRect(x: 0.13, y: 0.07, width: 0.71, height: 0.83)])
    func sameResults(regionOfInterest: NormalizedRect) throws {
        let (directory, path) = try Self.clipInNewDirectory()
        defer { withExtendedLifetime(directory) {} }
        func run(lanes: Int) throws -> (VideoTrajectoryDetection.Summary, [[NormalizedPoint]], [FrameStamp]) {
            let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
            request.minimumAnalysisLongSide = Self.minimumLongSide
            request.regionOfInterest = regionOfInterest
            var points: [[NormalizedPoint]] = [], stamps: [FrameStamp] = []
            let summary = try VideoTrajectoryDetection.run(uri: path, request: request, decodingLanes: lanes) { frame in
                stamps.append(frame.stamp)
                points += frame.observations.map(\.detectedPoints)
            }
            return (summary, points, stamps)
        }
        let (oneSummary, onePoints, oneStamps) = try run(lanes: 1)
        let (twoSummary, twoPoints, twoStamps) = try run(lanes: 2)
        #expect(oneStamps.count == Self.frameCount)
        #expect(!onePoints.isEmpty)
        #expect(twoStamps == oneStamps)
        #expect(twoPoints == onePoints)
        #expect(twoSummary.framesDecoded == oneSummary.framesDecoded)
        #expect(twoSummary.warnings == oneSummary.warnings)
    }

    @Test("a run in two lanes stopped early returns with the file closed by both")
    func stoppedEarly() throws {
        let (directory, path) = try Self.clipInNewDirectory()
        defer { withExtendedLifetime(directory) {} }
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        request.minimumAnalysisLongSide = Self.minimumLongSide
        #expect(throws: EnoughFrames.self) {
            _ = try VideoTrajectoryDetection.run(uri: path, request: request, decodingLanes: 2) { frame in
                if frame.stamp.index >= 40 { throw EnoughFrames() }
            }
        }
        #expect(try EarlyStopTests.openDescriptors(of: path) == 0, "a decoding lane still holds the file")
    }
}

/// A lane's queue may hold many frames, so its memory must follow the frames that wait.
@Suite("Decoded frame queue buffers")
struct DecodedFrameQueueBufferTests {
    /// Queues and takes `count` 64×64 frames through a queue of `lookahead`, `waiting` queued
    /// at a time; returns the buffers it allocated.
    static func buffersAllocated(count: Int, waiting: Int, lookahead: DecodingLookahead) throws -> Int {
        let queue = DecodedFrameQueue(lookahead: lookahead)
        var pushed = 0
        func push() {
            let index = pushed
            _ = queue.push(width: 64, height: 64, shrunkBy: 1, stamp: FrameStamp(index: index, time: 0)) { destination, layout in
                destination.initialize(repeating: UInt8(truncatingIfNeeded: index), count: layout.minimumByteCount)
            }
            pushed += 1
        }
        for _ in 0..<waiting { push() }
        for taken in 0..<count {
            let first = try queue.withOldest { plane, frame in (plane[0], frame.stamp.index) }
            #expect(first?.0 == UInt8(truncatingIfNeeded: taken) && first?.1 == taken, "frames come out in order, whole")
            if pushed < count { push() }
        }
        return queue.buffersAllocated
    }

    /// Pushes a 64×64 frame numbered `index` into `queue`, copied, as a lane's frame of
    /// `segment` when one is given.
    @discardableResult
    static func pushFrame(_ index: Int, segment: Int? = nil, into queue: DecodedFrameQueue) -> Bool {
        let place = segment.map { VideoReader.LanePlace(segment: $0, timestamp: nil) }
        return queue.push(width: 64, height: 64, shrunkBy: 1, stamp: FrameStamp(index: index, time: 0), place: place) {
            destination, layout in
            destination.initialize(repeating: UInt8(truncatingIfNeeded: index), count: layout.minimumByteCount)
        }
    }

    /// Waits up to 10 s for `condition`, checking every 10 ms.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    @Test("two lanes' queues share one byte budget; each may still hold the frames beyond it")
    func sharedBudget() throws {
        let frameBytes = 64 * 64
        // Four frames' bytes for both queues together, two frames each whatever the bytes.
        let lookahead = DecodingLookahead(maximumFrames: 64, byteBudget: 4 * frameBytes, framesBeyondBudget: 2)
        let memory = QueueMemory()
        let behind = DecodedFrameQueue(lookahead: lookahead, sharing: memory)
        let ahead = DecodedFrameQueue(lookahead: lookahead, sharing: memory)
        defer {
            behind.stop()
            ahead.stop()
        }
        for index in 0..<3 { #expect(Self.pushFrame(index, into: behind)) }
        let pushed = Atomic<Int>(0)
        let decoding = Thread {
            for index in 100..<106 {
                guard Self.pushFrame(index, into: ahead) else { return }
                pushed.add(1, ordering: .sequentiallyConsistent)
            }
        }
        decoding.start()
        // Alone the queue ahead would take 4 frames; with the 3 behind it, only its own 2.
        #expect(Self.eventually { pushed.load(ordering: .sequentiallyConsistent) == 2 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(pushed.load(ordering: .sequentiallyConsistent) == 2, "the queue ahead took more than the shared budget")
        // Taking one frame behind leaves 4 frames' bytes queued: still no room. A second leaves 3.
        #expect(try behind.withOldest { _, frame in frame.stamp.index } == 0)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(pushed.load(ordering: .sequentiallyConsistent) == 2)
        #expect(try behind.withOldest { _, frame in frame.stamp.index } == 1)
        #expect(Self.eventually { pushed.load(ordering: .sequentiallyConsistent) == 3 })
        // The queue behind, whose frames the analysis takes, is never held up by the one ahead.
        #expect(Self.pushFrame(3, into: behind))
        #expect(try behind.withOldest { _, frame in frame.stamp.index } == 2)
        let firstAhead = try ahead.withOldest { plane, frame in (value: plane[0], index: frame.stamp.index) }
        #expect(firstAhead?.value == 100 && firstAhead?.index == 100)
    }

    @Test("a lane runs no further ahead than the segment after the analysis's, but for one frame")
    func laneWaitsForTheAnalysis() throws {
        let lookahead = DecodingLookahead(maximumFrames: 64, byteBudget: .max, framesBeyondBudget: 2)
        let lane = DecodedFrameQueue(lookahead: lookahead, sharing: QueueMemory())
        defer { lane.stop() }
        // The analysis takes segment 0: the next one's frames are queued as they come.
        for index in 0..<3 { #expect(Self.pushFrame(index, segment: 1, into: lane)) }
        let pushed = Atomic<Int>(0)
        let decoding = Thread {
            for index in 3..<6 {
                guard Self.pushFrame(index, segment: 3, into: lane) else { return }
                pushed.add(1, ordering: .sequentiallyConsistent)
            }
        }
        decoding.start()
        // Segment 3's first frame, which tells the analysing side that segment 1 is over.
        #expect(Self.eventually { pushed.load(ordering: .sequentiallyConsistent) == 1 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(pushed.load(ordering: .sequentiallyConsistent) == 1, "the lane ran two segments ahead")
        lane.analysisReached(segment: 1)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(pushed.load(ordering: .sequentiallyConsistent) == 1, "the lane ran two segments ahead")
        lane.analysisReached(segment: 2)
        // Required: the frames below are taken only once queued, and would be waited for for ever.
        try #require(Self.eventually { pushed.load(ordering: .sequentiallyConsistent) == 3 })
        for index in 0..<6 { #expect(try lane.withOldest { _, frame in frame.stamp.index } == index) }
    }

    @Test("a frame taken from one queue leaves its buffer to the other queue sharing its memory")
    func sharedSpareBuffers() throws {
        let lookahead = DecodingLookahead(maximumFrames: 8, byteBudget: .max, framesBeyondBudget: 2)
        let memory = QueueMemory()
        let first = DecodedFrameQueue(lookahead: lookahead, sharing: memory)
        let second = DecodedFrameQueue(lookahead: lookahead, sharing: memory)
        for round in 0..<10 {
            #expect(Self.pushFrame(2 * round, into: first))
            #expect(try first.withOldest { plane, _ in plane[0] } == UInt8(2 * round))
            #expect(Self.pushFrame(2 * round + 1, into: second))
            #expect(try second.withOldest { plane, _ in plane[0] } == UInt8(2 * round + 1))
        }
        #expect(first.buffersAllocated + second.buffersAllocated == 1)
    }

    @Test("the ring's turning gives no more buffers than frames ever waited at once")
    func buffersFollowWaitingFrames() throws {
        let wide = DecodingLookahead(maximumFrames: 64, byteBudget: .max, framesBeyondBudget: 2)
        #expect(try Self.buffersAllocated(count: 300, waiting: 1, lookahead: wide) == 1)
        #expect(try Self.buffersAllocated(count: 300, waiting: 5, lookahead: wide) == 5)
    }

    /// Lends `body` a blank frame, freed when it returns.
    static func withFrame<Result>(_ body: (UnsafeMutablePointer<AVFrame>) throws -> Result) throws -> Result {
        var frame: UnsafeMutablePointer<AVFrame>? = try #require(av_frame_alloc())
        defer { av_frame_free(&frame) }
        return try body(frame!)
    }

    /// Describes `frame` as a 64×64 picture of `format`, with no buffers yet.
    static func describe(_ frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat) {
        frame.pointee.width = 64
        frame.pointee.height = 64
        frame.pointee.format = format.rawValue
    }

    /// Gives `frame` a 64×64 picture of `format`, laid out by `av_frame_get_buffer`.
    static func givePicture(to frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat) throws {
        describe(frame, format: format)
        try #require(av_frame_get_buffer(frame, 0) == 0)
    }

    @Test("nor more holders of handed-over frames")
    func holdersFollowWaitingFrames() throws {
        let queue = DecodedFrameQueue(lookahead: DecodingLookahead(maximumFrames: 64, byteBudget: .max, framesBeyondBudget: 2))
        let layout = PlaneLayout(width: 64, height: 64, bytesPerRow: 64)
        try Self.withFrame { decoded in
            for index in 0..<300 {
                // A decoded frame of its own, as the decoder gives one, for the queue to take over.
                try Self.givePicture(to: decoded, format: AV_PIX_FMT_GRAY8)
                let plane = try #require(decoded.pointee.data.0)
                plane.initialize(repeating: UInt8(truncatingIfNeeded: index), count: 64)
                let handOver = VideoReader.FrameHandOver(frame: decoded, plane: UnsafePointer(plane))
                #expect(queue.push(handingOver: handOver, layout: layout, stamp: FrameStamp(index: index, time: 0)))
                let first = try queue.withOldest { plane, frame in (plane[0], frame.stamp.index) }
                #expect(first?.0 == UInt8(truncatingIfNeeded: index) && first?.1 == index)
            }
        }
        #expect(queue.holdersAllocated == 1)
    }

    /// Makes `frame` a 64×64 4:2:0 frame whose three planes are each in a buffer of its own, as
    /// FFmpeg's decoders lay them out, luma filled with `luma`; returns a second reference to
    /// each buffer.
    static func givePlanePerBuffer(to frame: UnsafeMutablePointer<AVFrame>, luma: UInt8) throws -> [UnsafeMutablePointer<AVBufferRef>?] {
        describe(frame, format: AV_PIX_FMT_YUV420P)
        let sizes = [64 * 64, 32 * 32, 32 * 32]
        let buffers = try sizes.map { try #require(av_buffer_alloc(Int($0))) }
        buffers[0].pointee.data.initialize(repeating: luma, count: sizes[0])
        (frame.pointee.buf.0, frame.pointee.buf.1, frame.pointee.buf.2) = (buffers[0], buffers[1], buffers[2])
        (frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2) = (buffers[0].pointee.data, buffers[1].pointee.data, buffers[2].pointee.data)
        (frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2) = (64, 32, 32)
        return try buffers.map { Optional(try #require(av_buffer_ref($0))) }
    }

    @Test("a handed-over frame's colour planes go back to their pools as it is queued; its luma when taken")
    func colourPlanesLetGoAtOnce() throws {
        let queue = DecodedFrameQueue(lookahead: DecodingLookahead(maximumFrames: 4, byteBudget: .max, framesBeyondBudget: 2))
        try Self.withFrame { decoded in
            var ownReferences = try Self.givePlanePerBuffer(to: decoded, luma: 7)
            defer { for index in ownReferences.indices { av_buffer_unref(&ownReferences[index]) } }
            let handOver = VideoReader.FrameHandOver(frame: decoded, plane: UnsafePointer(decoded.pointee.data.0!))
            let layout = PlaneLayout(width: 64, height: 64, bytesPerRow: 64)
            #expect(queue.push(handingOver: handOver, layout: layout, stamp: FrameStamp(index: 0, time: 0)))
            // Counted with this test's own reference: 2 while the queue holds a buffer too.
            #expect(ownReferences.map { Int(av_buffer_get_ref_count($0!)) } == [2, 1, 1])
            let sum = try queue.withOldest { plane, _ in plane.withUnsafeBufferPointer { $0.reduce(0) { $0 + Int($1) } } }
            #expect(sum == 7 * 64 * 64, "the luma plane is read whole")
            #expect(ownReferences.map { Int(av_buffer_get_ref_count($0!)) } == [1, 1, 1])
        }
    }

    @Test("FFmpeg's H.264 decoder hands over each plane in a buffer of its own, so colour can go first")
    func decoderBufferPerPlane() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("square.mp4")
        try MovingSquare().write(to: path, count: 3, settings: quickSettings())
        var reader = try VideoReader(uri: path)
        let buffersHoldingEachPlane = try reader.nextFrame(handingOver: { _, _, _, handOver in
            let frame = try #require(handOver?.frame)
            let buffers = [frame.pointee.buf.0, frame.pointee.buf.1, frame.pointee.buf.2]
            let planes = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
            return zip(buffers, planes).map { buffer, plane -> Bool in
                guard let buffer, let plane else { return false }
                return plane >= buffer.pointee.data && plane < buffer.pointee.data + buffer.pointee.size
            }
        })
        #expect(buffersHoldingEachPlane == [true, true, true])
    }

    @Test("planes sharing one buffer keep it whole while queued")
    func sharedBufferKept() throws {
        let queue = DecodedFrameQueue(lookahead: DecodingLookahead(maximumFrames: 4, byteBudget: .max, framesBeyondBudget: 2))
        try Self.withFrame { decoded in
            try Self.givePicture(to: decoded, format: AV_PIX_FMT_YUV420P)
            try #require(decoded.pointee.buf.1 == nil, "av_frame_get_buffer puts every plane in one buffer")
            var shared: UnsafeMutablePointer<AVBufferRef>? = try #require(av_buffer_ref(decoded.pointee.buf.0))
            defer { av_buffer_unref(&shared) }
            let luma = try #require(decoded.pointee.data.0)
            let layout = PlaneLayout(width: 64, height: 64, bytesPerRow: Int(decoded.pointee.linesize.0))
            for row in 0..<64 { (luma + row * layout.bytesPerRow).initialize(repeating: 9, count: 64) }
            let handOver = VideoReader.FrameHandOver(frame: decoded, plane: UnsafePointer(luma))
            #expect(queue.push(handingOver: handOver, layout: layout, stamp: FrameStamp(index: 0, time: 0)))
            #expect(av_buffer_get_ref_count(shared!) == 2)
            let corner = try queue.withOldest { plane, _ in plane[63 * layout.bytesPerRow + 63] }
            #expect(corner == 9)
            #expect(av_buffer_get_ref_count(shared!) == 1)
        }
    }
}

/// Cutting a stream into segments, packet by packet.
@Suite("Segment boundaries")
struct SegmentBoundariesTests {
    /// An `avcC` record with 4-byte NAL lengths, as an MP4 holds it.
    static let avcC: [UInt8] = [1, 0x64, 0, 0x1F, 0xFF, 0xE1, 0]
    /// An `hvcC` record with 4-byte NAL lengths.
    static let hvcC: [UInt8] = [1] + [UInt8](repeating: 0, count: 20) + [0x03, 0]

    /// A packet of NAL units with these header bytes, each with a byte of payload.
    static func packet(_ headers: [UInt8]) -> [UInt8] {
        headers.flatMap { [0, 0, 0, 2, $0, 0x80] }
    }

    static func segments(_ packets: [[UInt8]], extradata: [UInt8] = avcC, syntax: SegmentBoundaries.Syntax = .h264) -> [Int] {
        var boundaries = extradata.withUnsafeBytes { SegmentBoundaries(syntax: syntax, extradata: $0, minimumPackets: 3) }!
        return packets.map { packet in packet.withUnsafeBytes { boundaries.segment(ofPacket: $0) } }
    }

    // H.264 NAL headers: an IDR slice, another slice, a sequence and a picture parameter set.
    static let idr: UInt8 = 0x65, slice: UInt8 = 0x41, sps: UInt8 = 0x67, pps: UInt8 = 0x68

    @Test("H.264 is cut at IDR pictures, a segment's minimum length apart")
    func cutsAtIDR() {
        let packets = [[Self.idr], [Self.slice], [Self.idr], [Self.slice], [Self.idr], [Self.slice], [Self.slice], [Self.idr]]
            .map(Self.packet)
        #expect(Self.segments(packets) == [0, 0, 0, 0, 1, 1, 1, 2])
    }

    @Test("a keyframe that is no IDR picture is not cut at")
    func openGOPKeyframe() {
        // An I slice outside an IDR picture is NAL type 1, like any other slice.
        let packets = [[Self.idr], [Self.slice], [Self.slice], [Self.slice], [Self.slice]].map(Self.packet)
        #expect(Self.segments(packets) == [0, 0, 0, 0, 0])
    }

    @Test("parameter sets inside an IDR packet are the segment's own; outside one they end all cutting")
    func parameterSets() {
        let withSets = [[Self.sps, Self.pps, Self.idr], [Self.slice], [Self.slice], [Self.sps, Self.pps, Self.idr], [Self.slice]]
            .map(Self.packet)
        #expect(Self.segments(withSets) == [0, 0, 0, 1, 1])
        let outside = [[Self.idr], [Self.sps, Self.slice], [Self.slice], [Self.idr], [Self.slice], [Self.slice], [Self.idr]]
            .map(Self.packet)
        #expect(Self.segments(outside) == [0, 0, 0, 0, 0, 0, 0])
    }

    @Test("a packet that does not parse ends all cutting")
    func unparsable() {
        let broken: [UInt8] = [0, 0, 0, 9, Self.slice]  // says 9 bytes, holds 1
        let packets = [Self.packet([Self.idr]), broken, Self.packet([Self.slice]), Self.packet([Self.idr])]
        #expect(Self.segments(packets) == [0, 0, 0, 0])
    }

    @Test("HEVC is cut at IDR pictures, not at clean random access ones")
    func hevc() {
        let idr: UInt8 = 19 << 1, cra: UInt8 = 21 << 1, trail: UInt8 = 1 << 1
        let packets = [[idr], [trail], [trail], [cra], [trail], [idr]].map(Self.packet)
        #expect(Self.segments(packets, extradata: Self.hvcC, syntax: .hevc) == [0, 0, 0, 0, 0, 1])
    }

    @Test("streams without a length-prefixed header are not cut")
    func notCuttable() {
        let annexB: [UInt8] = [0, 0, 0, 1, Self.sps, 0x64, 0, 0x1F]
        #expect(annexB.withUnsafeBytes { SegmentBoundaries(syntax: .h264, extradata: $0) } == nil)
        #expect([UInt8]().withUnsafeBytes { SegmentBoundaries(syntax: .hevc, extradata: $0) } == nil)
    }
}

/// Which lane decodes each segment, and when a second lane is worth starting.
@Suite("Sharing segments between lanes")
struct SegmentSharesTests {
    @Test("the first lane decodes every segment until the alternation starts, the second lane the first after it")
    func lanesOfSegments() {
        let fromTheStart = SegmentShares(alternatingFrom: 1)
        #expect((0..<6).map(fromTheStart.lane(of:)) == [0, 1, 0, 1, 0, 1])
        #expect(!fromTheStart.alternate(from: 4), "already alternating")

        let later = SegmentShares(alternatingFrom: nil)
        #expect(later.firstAlternatingSegment == nil)
        #expect((0..<6).map(later.lane(of:)) == [0, 0, 0, 0, 0, 0])
        #expect(!later.alternate(from: 0), "the first segment has been begun by the first lane")
        #expect(later.alternate(from: 3))
        #expect(!later.alternate(from: 4), "it starts once")
        #expect(later.firstAlternatingSegment == 3)
        #expect((0..<8).map(later.lane(of:)) == [0, 0, 0, 1, 0, 1, 0, 1])
    }

    @Test("a second lane pays when the analysis waited at least 40 % of the time since the last cut")
    func trigger() {
        let ms: UInt64 = 1_000_000
        var trigger = SecondLaneTrigger(time: 1000 * ms)
        let readings = [
            trigger.secondLanePays(time: 1100 * ms, waited: 20 * ms),  // a fifth of the time
            // From the last reading on: 60 of the next 100 ms, though a third of the 200 in all.
            trigger.secondLanePays(time: 1200 * ms, waited: 80 * ms),
            trigger.secondLanePays(time: 1300 * ms, waited: 110 * ms),  // 30 of 100 ms
            trigger.secondLanePays(time: 1400 * ms, waited: 150 * ms),  // 40 of 100 ms, just enough
            trigger.secondLanePays(time: 1400 * ms, waited: 150 * ms),  // no time passed
        ]
        #expect(readings == [false, true, false, true, false])
    }

    @Test("the queue counts the time the analysing side waited for a frame")
    func queueCountsWaiting() throws {
        let queue = DecodedFrameQueue(lookahead: .default)
        #expect(queue.analysisWaitedNanoseconds == 0)
        let pushed = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            _ = DecodedFrameQueueBufferTests.pushFrame(0, into: queue)
        }
        pushed.start()
        let taken = try queue.withOldest { _, _ in true }
        #expect(taken == true)
        #expect(queue.analysisWaitedNanoseconds >= 40_000_000)
        // A frame already queued is taken without waiting.
        _ = DecodedFrameQueueBufferTests.pushFrame(1, into: queue)
        let before = queue.analysisWaitedNanoseconds
        _ = try queue.withOldest { _, _ in true }
        #expect(queue.analysisWaitedNanoseconds == before)
    }
}

@Suite("Two lanes' warnings")
struct LaneWarningsTests {
    @Test("each message once, with the larger of the two lanes' repeat counts")
    func merged() {
        let first = ["h264: Invalid NAL unit size (6770 > 4114).", "mov: partial file", "a frame was damaged"]
        let second = [
            "h264: Invalid NAL unit size (6770 > 4114). (repeated 2 times)", "mov: partial file",
            "h264: Error splitting the input into NAL units.", "a frame was damaged (repeated 1 times)",
        ]
        #expect(LaneWarnings.merged(first, second) == [
            "h264: Invalid NAL unit size (6770 > 4114). (repeated 2 times)", "mov: partial file", "a frame was damaged",
            "h264: Error splitting the input into NAL units.",
        ])
        #expect(LaneWarnings.merged(second, first) == second)
        #expect(LaneWarnings.split("odd (repeated x times)") == ("odd (repeated x times)", 1))
    }
}
