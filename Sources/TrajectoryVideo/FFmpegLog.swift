import CFFmpeg
import CVideoIO

/// FFmpeg's own log messages.
///
/// By default FFmpeg prints nothing: the errors it reports while a `VideoReader` or
/// `VideoWriter` works become that object's ``VideoReader/warnings`` or the detail of the
/// ``VideoError`` it throws. Raise ``echoLevel`` (a command line's `--verbose`) to also see
/// FFmpeg's messages on standard error, in FFmpeg's own format.
public enum FFmpegLog {
    /// How much of FFmpeg's logging is printed to standard error, mirroring FFmpeg's levels.
    public enum Level: Int32, Sendable, CaseIterable {
        case quiet = -8, error = 16, warning = 24, info = 32, verbose = 40, debug = 48
    }

    /// The most detailed level printed to standard error; `.quiet` by default. Process-wide,
    /// because FFmpeg's logging is.
    public static var echoLevel: Level {
        get { Level(rawValue: cvio_log_echo_level()) ?? .quiet }
        set { cvio_log_set_echo_level(newValue.rawValue) }
    }
}

/// The warnings one reader or writer collects, in the order they happened: FFmpeg's error
/// messages addressed to its contexts, and problems the reader finds itself.
///
/// A class so that every FFmpeg owner that points its contexts' `opaque` at the sink keeps it
/// alive: the sink must outlive the decoder threads that may still log into it.
final class WarningLog: @unchecked Sendable {  // the C sink has its own lock
    private let sink: OpaquePointer

    init() {
        guard let sink = cvio_log_sink_create() else { fatalError("out of memory creating a log sink") }
        self.sink = sink
    }

    deinit { cvio_log_sink_destroy(sink) }

    /// The value to store in an AVFormatContext's or AVCodecContext's `opaque`.
    var contextOpaque: UnsafeMutableRawPointer { UnsafeMutableRawPointer(sink) }

    func add(_ message: String) { cvio_log_sink_add(sink, message) }

    var messages: [String] {
        (0..<cvio_log_sink_count(sink)).compactMap { index in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 320) { buffer in
                guard let base = buffer.baseAddress, cvio_log_sink_message(sink, index, base, buffer.count) else {
                    return nil
                }
                return String(cString: base)
            }
        }
    }

    /// The latest message, to explain an error FFmpeg only described as a code.
    var latest: String? { messages.last }

    /// Runs `body` with what FFmpeg logs on this thread, from objects with no sink of their
    /// own (probing codec contexts, I/O), sent here.
    func collecting<Result: ~Copyable, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let previous = cvio_log_route_thread(sink)
        defer { cvio_log_route_thread(previous) }
        return try body()
    }
}
