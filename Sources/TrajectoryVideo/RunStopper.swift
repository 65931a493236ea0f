import Synchronization

/// Ends a ``VideoTrajectoryDetection`` run early from any thread (a signal handler's queue,
/// a user interface), keeping what it has found: the run stops reading, analyses no frame
/// after the one in hand, and returns its summary marked ``VideoTrajectoryDetection/Summary/stoppedEarly``.
///
/// Unlike throwing from the frame callback, which the run rethrows, this also ends a run
/// that is waiting for its next frame, or for its video to open: a network read gives up at
/// once, and a pipe that has gone silent is left to its decoding thread. A run stopped before
/// its video is open has nothing to summarize and throws ``VideoError/Kind/stoppedBeforeOpening``.
///
/// ```swift
/// let stopper = RunStopper()
/// // elsewhere, say on Ctrl-C: stopper.requestStop()
/// let summary = try VideoTrajectoryDetection.run(uri: "rtmp://…", request: request, stopper: stopper) { _ in }
/// ```
public final class RunStopper: Sendable {
    private struct State {
        var isRequested = false
        /// The decoding of the run in progress, while there is one.
        var decoding: DecodingThread?
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether ``requestStop()`` has been called.
    public var isRequested: Bool { state.withLock { $0.isRequested } }

    /// Stops the run in progress, or the next one this stopper is given to, as soon as it can.
    public func requestStop() {
        let decoding = state.withLock { state in
            state.isRequested = true
            return state.decoding
        }
        decoding?.interrupt()
    }

    /// Lets ``requestStop()`` reach `decoding` until ``detach()``; interrupts it at once when a
    /// stop was requested already.
    func attach(_ decoding: DecodingThread) {
        let requested = state.withLock { state in
            state.decoding = decoding
            return state.isRequested
        }
        if requested { decoding.interrupt() }
    }

    func detach() {
        state.withLock { $0.decoding = nil }
    }
}
