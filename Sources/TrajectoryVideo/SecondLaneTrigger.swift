/// Decides, at each cut of a stream the first lane has decoded alone so far, whether a second
/// decoder would pay: when the analysing side spent at least ``minimumWaitShare`` of the time
/// since the last cut waiting for frames. Decoding is then what holds the run back, and the
/// analysis takes so little of its core that a second decoder fits beside it.
///
/// Why not decide by frame size alone, as for 1080p: at 720p, every frame analysed whole, the
/// analysis costs from next to nothing to nearly as much as decoding, by what moves in the
/// picture. Where it is cheap, two lanes are faster (toss-vertical ×16: 0.84 of `ffmpeg
/// -threads 0`'s rate against 0.72 with one decoder; the analysis waited 56–61 % of each
/// segment); where it is not, they lose a fifth (walkers ×10, where it waited 14–24 %). The
/// share is measured afresh at each cut, so a busy opening does not rule the second lane out
/// for a quiet rest (README, "Speed").
struct SecondLaneTrigger {
    /// The share of the time the analysing side must have waited for frames.
    static let minimumWaitShare = 0.4

    /// When the share was last measured, and how long the analysing side had waited by then,
    /// in nanoseconds.
    private var lastReading: (time: UInt64, waited: UInt64)

    /// A trigger measuring from `time`, when the analysing side had waited `waited` ns.
    init(time: UInt64, waited: UInt64 = 0) {
        lastReading = (time, waited)
    }

    /// Whether a second lane pays, given the time now and how long the analysing side has
    /// waited for frames in all; measures the next share from here.
    mutating func secondLanePays(time: UInt64, waited: UInt64) -> Bool {
        defer { lastReading = (time, waited) }
        guard time > lastReading.time else { return false }
        let share = Double(waited &- lastReading.waited) / Double(time - lastReading.time)
        return share >= Self.minimumWaitShare
    }
}
