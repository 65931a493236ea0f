import CFFmpeg
import Synchronization

/// A flag one thread raises to tell another's input to give up: FFmpeg checks it, through an
/// interrupt callback, while it waits on a network read, and then fails the read at once
/// instead of waiting for data or for the network time-out. Reads of files never wait, and
/// reads of pipes wait in the kernel where no callback reaches them.
final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// The callback to install as an AVFormatContext's `interrupt_callback`. It does not keep
    /// the signal alive: whoever owns the context must keep a reference to the signal too.
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<StopSignal>.fromOpaque(opaque).takeUnretainedValue().isRaised ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
