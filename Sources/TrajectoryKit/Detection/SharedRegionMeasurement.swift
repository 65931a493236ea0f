import Foundation
import Synchronization

/// Measures a frame's moving regions whole (``WholeObjectRefiner``), with a second thread taking
/// part on busy frames.
///
/// In a busy scene (leaves in the wind, a crowd) measuring the regions whole is most of the
/// analysis, while decoding keeps the second core busy a fifth of the time. Each region is
/// measured on its own, from frames that neither thread changes meanwhile, so on a frame with
/// at least ``leastSharedRegions`` regions to measure the calling thread and a helper thread
/// take regions in turn from one counter, each with its own refiner, and every outcome is kept
/// by region. The detector then reads the outcomes in the regions' order: it finds what it
/// would have found measuring them one by one, only sooner.
struct SharedRegionMeasurement {
    /// When the helper thread takes part.
    enum Sharing {
        /// Never: every region is measured on the calling thread.
        case never
        /// On frames with at least ``leastSharedRegions`` regions, on a machine with two cores or more.
        case busyFrames
        /// On every frame with a region to measure (for tests).
        case always
    }

    /// On a frame with fewer regions than this, the calling thread measures them all: waking
    /// the helper and waiting for its last region costs about as much as measuring a few.
    static let leastSharedRegions = 16

    /// When the helper thread takes part; set to ``Sharing/never``, it ends the thread, if started.
    var sharing: Sharing {
        didSet { if sharing == .never { helper = nil } }
    }
    private var refiner = WholeObjectRefiner()
    /// The outcomes the calling thread measured, by region index; nil for the others.
    private var outcomes: [WholeObjectRefiner.Outcome?] = []
    /// Indices of the regions the last frame measured: those of at least the minimum area, in order.
    private(set) var measuredRegions: [Int] = []
    /// Started on the first frame that shares.
    private var helper: MeasurementHelper?
    /// How many regions the helper thread has measured so far (for tests).
    private(set) var regionsMeasuredByHelper = 0

    init(sharing: Sharing = .busyFrames) {
        self.sharing = sharing
    }

    /// Measures every region of `finder` of at least `minimumArea` pixels whole; see
    /// ``WholeObjectRefiner/measureWhole(regionAt:of:motion:history:cameraMotionSince:layout:thresholds:)``
    /// for the other parameters.
    mutating func measure(
        regionsOf finder: MotionRegionFinder, minimumArea: Int, motion: [UInt8], history: SmoothedFrameHistory,
        cameraMotionSince: [CameraMotion], layout: PlaneLayout, thresholds: MotionThresholds
    ) {
        measuredRegions.removeAll(keepingCapacity: true)
        for (index, region) in finder.regions.enumerated() where region.area >= minimumArea {
            measuredRegions.append(index)
        }
        clearOutcomes(&outcomes, of: measuredRegions, regionCount: finder.regions.count)
        let job = MeasurementJob(
            finder: finder, motion: motion, history: history, cameraMotionSince: cameraMotionSince, layout: layout,
            thresholds: thresholds, regions: measuredRegions)
        guard sharesFrame(regionCount: measuredRegions.count), let helper = startedHelper(),
            helper.post(job, sharingBuffersWith: &refiner, outcomes: &outcomes)
        else {
            for index in measuredRegions { outcomes[index] = job.measure(regionAt: index, with: &refiner) }
            return
        }
        while let position = helper.claim(below: measuredRegions.count) {
            let index = measuredRegions[position]
            outcomes[index] = job.measure(regionAt: index, with: &refiner)
        }
        helper.finish()
        for index in measuredRegions where outcomes[index] == nil {
            outcomes[index] = helper.outcome(ofRegion: index)
            regionsMeasuredByHelper += 1
        }
    }

    /// The outcome of measuring region `index` whole, for a region the last ``measure(regionsOf:minimumArea:motion:history:cameraMotionSince:layout:thresholds:)``
    /// measured.
    func outcome(ofRegion index: Int) -> WholeObjectRefiner.Outcome {
        guard let outcome = outcomes[index] else { preconditionFailure("region \(index) was not measured") }
        return outcome
    }

    private func sharesFrame(regionCount: Int) -> Bool {
        switch sharing {
        case .never: false
        case .busyFrames: regionCount >= Self.leastSharedRegions && Self.machineHasSecondCore
        case .always: regionCount > 0
        }
    }

    private static let machineHasSecondCore = ProcessInfo.processInfo.activeProcessorCount >= 2

    /// What the helper thread holds while it runs, if it was started (for tests: it goes once
    /// the thread has ended).
    var helperThreadState: AnyObject? { helper?.threadState }

    /// How large one thread's buffers for measuring regions are (for tests).
    struct ThreadBufferSizes: Equatable {
        var refiner: ComparisonWindow.BufferSizes
        var outcomeSlots: Int
    }

    /// The sizes of the calling thread's buffers and, once it has started, the helper's (for
    /// tests; read between frames).
    var bufferSizes: (caller: ThreadBufferSizes, helper: ThreadBufferSizes?) {
        (ThreadBufferSizes(refiner: refiner.bufferSizes, outcomeSlots: outcomes.count), helper?.bufferSizes)
    }

    private mutating func startedHelper() -> MeasurementHelper? {
        if helper == nil { helper = MeasurementHelper() }
        return helper
    }
}

/// Makes `outcomes` hold a slot for each of `regionCount` regions (growing it only when a frame
/// has more regions than any before) and empties those of `regions`, which are measured next:
/// a slot still empty afterwards was measured by the other thread.
private func clearOutcomes(_ outcomes: inout [WholeObjectRefiner.Outcome?], of regions: [Int], regionCount: Int) {
    growOutcomeSlots(&outcomes, to: regionCount)
    for index in regions { outcomes[index] = nil }
}

/// Makes `outcomes` hold at least `count` slots; new ones are empty.
private func growOutcomeSlots(_ outcomes: inout [WholeObjectRefiner.Outcome?], to count: Int) {
    if outcomes.count < count {
        outcomes.append(contentsOf: repeatElement(nil, count: count - outcomes.count))
    }
}

/// What one frame's region measurement reads: copies of the detector's stages, which share
/// their storage with the originals (no pixel is copied) as long as nothing changes them.
private struct MeasurementJob {
    let finder: MotionRegionFinder
    let motion: [UInt8]
    let history: SmoothedFrameHistory
    let cameraMotionSince: [CameraMotion]
    let layout: PlaneLayout
    let thresholds: MotionThresholds
    /// Indices of the regions to measure.
    let regions: [Int]

    func measure(regionAt index: Int, with refiner: inout WholeObjectRefiner) -> WholeObjectRefiner.Outcome {
        refiner.measureWhole(
            regionAt: index, of: finder, motion: motion.span, history: history, cameraMotionSince: cameraMotionSince,
            layout: layout, thresholds: thresholds)
    }
}

/// The helper thread and what it shares with the detector's thread. The thread ends when the
/// detector that started it goes (``MeasurementHelper``'s `deinit`).
private final class MeasurementHelper {
    private let shared = HelperState()

    init() {
        let shared = self.shared
        let thread = Thread { shared.serve() }
        thread.name = "trajectories region measurement"
        thread.start()
    }

    deinit { shared.stop() }

    /// The state the thread holds until it ends.
    var threadState: AnyObject { shared }

    /// Offers `job` to the helper; false when the helper is busy with another detector's
    /// frame (a copy of the same detector, on another thread). When it takes the job, it first
    /// shares buffer sizes with the calling thread's `refiner` and `outcomes` (see
    /// ``HelperState/post(_:sharingBuffersWith:outcomes:)``).
    func post(
        _ job: MeasurementJob, sharingBuffersWith refiner: inout WholeObjectRefiner,
        outcomes: inout [WholeObjectRefiner.Outcome?]
    ) -> Bool {
        shared.post(job, sharingBuffersWith: &refiner, outcomes: &outcomes)
    }

    /// The next position in the job's regions to measure, or nil when all are taken.
    func claim(below count: Int) -> Int? { shared.claim(below: count) }

    /// Waits until the helper has measured the regions it took (or takes the job back if the
    /// helper has not started it) and lets go of the job, so that the detector's stages are
    /// again the only owners of their storage and change it in place.
    func finish() { shared.finish() }

    /// The outcome the helper measured for region `index` of the finished job, if it took it.
    func outcome(ofRegion index: Int) -> WholeObjectRefiner.Outcome? { shared.outcome(ofRegion: index) }

    /// The sizes of the helper's buffers (for tests).
    var bufferSizes: SharedRegionMeasurement.ThreadBufferSizes { shared.bufferSizes }
}

/// The state both threads reach: the job and where the helper is with it under `condition`'s
/// lock, the claim counter as an atomic, and the helper's outcomes, written by the helper
/// while it works and read by the detector's thread only after ``finish()``.
private final class HelperState: @unchecked Sendable {
    private enum Phase {
        /// No job.
        case idle
        /// A job waits for the helper.
        case posted
        /// The helper is measuring.
        case working
        /// The helper has let go of the job.
        case done
    }

    private let condition = NSCondition()
    private var phase = Phase.idle
    private var stopping = false
    private var job: MeasurementJob?
    private let nextCandidate = Atomic<Int>(0)
    private var refiner = WholeObjectRefiner()
    private var outcomes: [WholeObjectRefiner.Outcome?] = []

    /// Posts `job` if the helper is idle. Before that, while the helper cannot be touching
    /// them, each thread's buffers grow to the larger of the two sizes: which regions each
    /// thread measures depends on timing, and without this a thread would allocate whenever it
    /// happened to measure a region larger than any it had measured itself, though not larger
    /// than any the detector had. So once a detector has seen a stream's largest regions,
    /// neither thread allocates, however the two share them.
    func post(
        _ job: MeasurementJob, sharingBuffersWith callerRefiner: inout WholeObjectRefiner,
        outcomes callerOutcomes: inout [WholeObjectRefiner.Outcome?]
    ) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard phase == .idle, !stopping else { return false }
        callerRefiner.reserveCapacity(matching: refiner)
        refiner.reserveCapacity(matching: callerRefiner)
        growOutcomeSlots(&callerOutcomes, to: outcomes.count)
        growOutcomeSlots(&outcomes, to: callerOutcomes.count)
        self.job = job
        nextCandidate.store(0, ordering: .relaxed)
        phase = .posted
        condition.broadcast()
        return true
    }

    func claim(below count: Int) -> Int? {
        let position = nextCandidate.wrappingAdd(1, ordering: .relaxed).oldValue
        return position < count ? position : nil
    }

    func finish() {
        condition.lock()
        defer { condition.unlock() }
        // Still posted: the helper has not woken yet, and the detector's thread took every
        // region; it finds the job gone when it does.
        while phase == .working { condition.wait() }
        job = nil
        phase = .idle
    }

    func outcome(ofRegion index: Int) -> WholeObjectRefiner.Outcome? {
        index < outcomes.count ? outcomes[index] : nil
    }

    var bufferSizes: SharedRegionMeasurement.ThreadBufferSizes {
        condition.lock()
        defer { condition.unlock() }
        return SharedRegionMeasurement.ThreadBufferSizes(refiner: refiner.bufferSizes, outcomeSlots: outcomes.count)
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// The helper thread's loop: waits for a job, measures regions until none is left, and
    /// says it is done.
    func serve() {
        while true {
            // The job's copy lives inside this block, so it is gone before the helper says
            // it is done.
            do {
                condition.lock()
                while phase != .posted && !stopping { condition.wait() }
                if stopping {
                    condition.unlock()
                    return
                }
                phase = .working
                guard let job else { preconditionFailure("a posted phase has a job") }
                condition.unlock()
                measureClaimed(of: job)
            }
            condition.lock()
            phase = .done
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Measures the regions the helper claims.
    private func measureClaimed(of job: MeasurementJob) {
        clearOutcomes(&outcomes, of: job.regions, regionCount: job.finder.regions.count)
        while let position = claim(below: job.regions.count) {
            let index = job.regions[position]
            outcomes[index] = job.measure(regionAt: index, with: &refiner)
        }
    }
}
