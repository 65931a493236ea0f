/// What a URI given to FFmpeg reads from, for the decisions that depend on it: whether a
/// stalled read should time out, and whether a stopped run can wait for its reader.
enum InputLocation {
    /// Whether FFmpeg reaches `url` through a protocol other than a file or a pipe (`http:`,
    /// `rtmp:`, `tcp:`, `async:`, …): such reads get the network time-out, since a slow writer
    /// there is no reason to wait for ever.
    static func isProtocol(_ url: String) -> Bool {
        guard let scheme = scheme(of: url) else { return false }
        return !["file", "pipe", "fd"].contains(scheme) && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" }
    }

    /// Whether a read of `uri` ends soon once its reader's stop signal is raised (see
    /// ``StopSignal``): a regular file's does, and so does one from a network protocol, which
    /// checks the signal while it waits. A pipe, standard input, a FIFO or a device waits in the
    /// kernel until its writer sends more or closes it, which may be never; so may any other
    /// protocol, such as FFmpeg's `async:` or `cache:` wrapped around a pipe.
    static func readsCanBeStopped(_ uri: String) -> Bool {
        guard uri != "-" else { return false }
        if let path = FFmpegURL.localPath(of: uri) { return LocalFile(path: path)?.kind == .regular }
        guard let scheme = scheme(of: uri) else { return false }
        // "hls+http" and the like: the part after the last "+" does the reading.
        return networkProtocols.contains(scheme.split(separator: "+").last.map(String.init) ?? scheme)
    }

    /// Whether `uri` can be read only once, so that opening it again would find nothing or wait
    /// for ever: standard input, `pipe:` and `fd:`, and a path to a named pipe, a device or a
    /// socket. A regular file, a directory, a missing path and a network URL are not.
    static func isReadOnce(_ uri: String) -> Bool {
        if ["pipe", "fd"].contains(FFmpegURL.protocolName(of: uri)) { return true }
        // Not a local path: a protocol FFmpeg has, which reading again opens again.
        guard let path = FFmpegURL.localPath(of: uri) else { return false }
        return LocalFile(path: path)?.kind == .special
    }

    /// FFmpeg's protocols that read from the network and check the interrupt callback while
    /// they wait.
    private static let networkProtocols: Set<String> = [
        "http", "https", "tcp", "udp", "tls", "rtp", "rtsp", "rtsps", "rtmp", "rtmps", "rtmpt", "rtmpe", "rtmpte",
        "rtmpts", "srt", "ftp", "mmsh", "mmst", "gopher", "gophers", "icecast", "srtp",
    ]

    /// The lower-cased part before the first colon, when it is long enough to be a protocol's
    /// name rather than a drive letter.
    private static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url.distance(from: url.startIndex, to: colon) > 1 else { return nil }
        return url[..<colon].lowercased()
    }
}
