import CFFmpeg
import CVideoIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a video could not be opened, read or written: the one error type of this module.
///
/// Its `description` is a single line naming the file and the reason in plain words, ready to
/// print, e.g. `cannot open 'x.mp4': no such file` or `'notes.txt' is not a video FFmpeg can read`.
public struct VideoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to match on.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The file does not exist.
        case noSuchFile
        /// The file exists but may not be read (or written).
        case permissionDenied
        /// The file holds no bytes at all.
        case emptyFile
        /// FFmpeg recognises no container format in it (a text file, a damaged header).
        case notAVideo
        /// The container holds streams, but none of them is video (an audio file, a subtitle file).
        case noVideoStream
        /// The video is coded with a codec this FFmpeg build cannot decode.
        case noDecoder
        /// The frames are larger than the reader was allowed to analyse (a resource limit; a
        /// damaged header can claim any size too).
        case frameTooLarge
        /// Reading or decoding failed in a way that leaves nothing to go on (e.g. out of memory).
        case readFailed
        /// A ``RunStopper`` stopped the run before the video was open, or before the first
        /// frame of a video that states no size: there is nothing to summarize, not even the
        /// video's size.
        case stoppedBeforeOpening
        /// The output file could not be created.
        case cannotCreate
        /// This FFmpeg build lacks the encoder a `VideoWriter.Format` needs.
        case noEncoder
        /// The writer's settings cannot work (odd size for 4:2:0, unknown container, bad rate).
        case invalidSettings
        /// A frame handed to the writer does not match the video (wrong size).
        case invalidFrame
        /// Encoding or writing failed part way.
        case writeFailed
    }

    /// What went wrong.
    public let kind: Kind
    /// The file, URL or `-` as the caller named it.
    public let uri: String
    /// More precise words, often FFmpeg's own, for the kinds that need them; one line.
    public let detail: String?

    /// The detail of a ``Kind/stoppedBeforeOpening`` error when the video was open, but it
    /// states no size and no frame of it, which would give one, had been decoded yet.
    public static let noFrameDecodedYet = "no frame decoded yet"

    /// Whether this is a stop before the first frame of an open video (see ``noFrameDecodedYet``)
    /// rather than before the video was open.
    public var isStopBeforeFirstFrame: Bool { kind == .stoppedBeforeOpening && detail == Self.noFrameDecodedYet }

    public init(_ kind: Kind, uri: String, detail: String? = nil) {
        self.kind = kind
        self.uri = uri
        self.detail = detail.map(Self.oneLine)
    }

    public var description: String {
        let name = "'\(uri)'"
        let reason = detail ?? "unknown reason"
        switch kind {
        case .noSuchFile: return "cannot open \(name): no such file"
        case .permissionDenied: return "cannot open \(name): permission denied"
        case .emptyFile: return "\(name) is empty"
        case .notAVideo: return "\(name) is not a video FFmpeg can read" + (detail.map { " (\($0))" } ?? "")
        case .noVideoStream: return "\(name) has no video stream"
        case .noDecoder: return "\(name) uses a codec this FFmpeg cannot decode: \(reason)"
        case .frameTooLarge: return "cannot read \(name): \(reason)"
        case .readFailed: return "cannot read \(name): \(reason)"
        case .stoppedBeforeOpening:
            return "stopped before " + (isStopBeforeFirstFrame ? "any frame of \(name) was decoded" : "\(name) was open")
                + ": nothing was analysed"
        case .cannotCreate: return "cannot create \(name): \(reason)"
        case .noEncoder: return "cannot write \(name): this FFmpeg has no \(reason) encoder"
        case .invalidSettings, .invalidFrame, .writeFailed: return "cannot write \(name): \(reason)"
        }
    }

    /// Newlines and tabs from FFmpeg would break the one-line promise.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            .joined(separator: "; ")
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// FFmpeg's error codes, named for the cases this module treats specially.
enum FFmpegCode {
    static let again = cvio_error_again()
    static let endOfFile = cvio_error_end_of_file()
    static let invalidData = cvio_error_invalid_data()
    static let noSuchFile = cvio_error_from_errno(ENOENT)
    static let permissionDenied = cvio_error_from_errno(EACCES)
    static let timedOut = cvio_error_from_errno(ETIMEDOUT)
    static let noTimestamp = cvio_no_timestamp()

    /// FFmpeg's words for `code`, e.g. "Invalid data found when processing input".
    static func message(_ code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            guard let base = buffer.baseAddress, av_strerror(code, base, buffer.count) == 0 else {
                return "FFmpeg error \(code)"
            }
            return String(cString: base)
        }
    }
}

/// The one seam through which FFmpeg's status codes become `VideoError`s: returns `code` when
/// it is not negative, otherwise throws the error `failure` makes from FFmpeg's message.
@discardableResult
func check(_ code: Int32, else failure: (String) -> VideoError) throws(VideoError) -> Int32 {
    guard code < 0 else { return code }
    throw failure(FFmpegCode.message(code))
}
