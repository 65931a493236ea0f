import CFFmpeg

/// What to hand FFmpeg for a path or URL a user gave.
enum FFmpegURL {
    /// An input as FFmpeg should open it: `-` is standard input (`pipe:0`); anything else is
    /// taken as ``ofFile(_:)`` takes it.
    static func of(_ location: String) -> String {
        location == "-" ? "pipe:0" : ofFile(location)
    }

    /// `location` as FFmpeg should open it when it names a file to read or write: a local path
    /// whose name FFmpeg would take for a URL of a protocol it does not have, such as
    /// `12:30.mp4` or `take:1.mp4`, is prefixed with `file:`. (FFmpeg reads the letters before
    /// a name's first colon as its protocol, and would fail with "Protocol not found".)
    /// Anything else, a plain path or a URL of a protocol FFmpeg has, is kept as it is.
    static func ofFile(_ location: String) -> String {
        guard location.contains(":"), avio_find_protocol_name(location) == nil else { return location }
        return "file:" + location
    }

    /// The protocol FFmpeg opens the input `location` with (`file`, `pipe`, `http`, …).
    static func protocolName(of location: String) -> String? {
        avio_find_protocol_name(of(location)).map { String(cString: $0) }
    }

    /// The local path FFmpeg opens for the input `location` (without a `file:` prefix), or nil
    /// when it reads through another protocol: standard input, a pipe, the network.
    static func localPath(of location: String) -> String? {
        guard protocolName(of: location) == "file" else { return nil }
        let url = of(location)
        return url.hasPrefix("file:") ? String(url.dropFirst("file:".count)) : url
    }
}
