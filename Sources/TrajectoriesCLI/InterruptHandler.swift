import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TrajectoryVideo

/// Turns the first Ctrl-C (SIGINT) or SIGTERM into an early stop that keeps the results: the
/// run stops reading, the results found so far are written as usual, with a warning, and the
/// command then exits with 128 + the signal's number, as a shell reports a process the signal
/// ended. A second signal ends the process at once, as if nothing were installed.
final class InterruptHandler: Sendable {
    /// The signals handled, with their names as the shell spells them.
    static let handledSignals: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")]

    private let received = Atomic<Int32>(0)
    // DispatchSource is not Sendable; the sources are only created and kept here.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    /// Starts handling SIGINT and SIGTERM by stopping `stopper`'s run.
    init(stopping stopper: RunStopper) {
        for (signalNumber, _) in Self.handledSignals {
            // A dispatch source sees a signal only once its default action is off.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self, self.received.compareExchange(expected: 0, desired: signalNumber, ordering: .relaxed).exchanged else { return }
                for other in Self.handledSignals { signal(other.number, SIG_DFL) }
                stopper.requestStop()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal that stopped the run, if one did.
    var receivedSignal: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// How a command a signal stopped ends: a warning naming the signal, followed by
    /// `detail` (what was kept), then exit 128 + the signal's number, as a shell reports a
    /// process the signal ended.
    static func exit(stoppedBy signalNumber: Int32, detail: String = "") -> ExitCode {
        Diagnostics.warning("stopped by \(name(of: signalNumber))\(detail)")
        return ExitCode(128 + signalNumber)
    }

    /// The name of a handled signal, as the shell spells it.
    static func name(of signalNumber: Int32) -> String {
        handledSignals.first { $0.number == signalNumber }?.name ?? "signal \(signalNumber)"
    }
}
