/// The warnings of two lanes' readers as one list.
///
/// Both readers read every packet, so both may tell of the same damage, each as often as it
/// met it: FFmpeg's log says a message once, with "(repeated N times)" when it came again. The
/// merged list says each message once, with the larger count, as one reader would have.
enum LaneWarnings {
    /// `first`'s messages, then those of `second` that `first` does not have, each with the
    /// larger of the two counts.
    static func merged(_ first: [String], _ second: [String]) -> [String] {
        var merged = first
        for message in second {
            let (text, count) = split(message)
            if let index = merged.firstIndex(where: { split($0).text == text }) {
                if count > split(merged[index]).count { merged[index] = message }
            } else {
                merged.append(message)
            }
        }
        return merged
    }

    /// A message's text without its repeat count, and how many times it came.
    static func split(_ message: String) -> (text: String, count: Int) {
        guard message.hasSuffix(" times)"), let start = message.range(of: " (repeated ", options: .backwards),
              let count = Int(message[start.upperBound...].dropLast(" times)".count))
        else { return (message, 1) }
        return (String(message[..<start.lowerBound]), count)
    }
}
