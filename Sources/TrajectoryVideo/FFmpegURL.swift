import CFFmpeg

/// What to hand FFmpeg for a path or URL a user gave.
enum FFmpegURL {
    /// `location` as FFmpeg should open it: `-` is standard input (`pipe:0`), and a local
    /// path whose name FFmpeg would take for a URL of a protocol it does not have, such as
    /// `12:30.mp4` or `take:1.mp4`, is prefixed with `file:`. (FFmpeg reads the letters before
    /// a name's first colon as its protocol, and would fail with "Protocol not found".)
    /// Anything else, a plain path or a URL of a protocol FFmpeg has, is kept as it is.
    static func of(_ location: String) -> String {
        if location == "-" { return "pipe:0" }
        guard location.contains(":"), avio_find_protocol_name(location) == nil else { return location }
        return "file:" + location
    }
}
