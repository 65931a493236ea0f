#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The SIMD vector the detector's kernels work in: 16 luma bytes.
///
/// On this compiler `SIMD16<UInt8>` operations compile to single SSE instructions, while
/// `SIMD32<UInt8>` falls back to lane-by-lane code, so wider is not faster here. Some of the
/// standard library's generic helpers are not inlined even at SIMD16: `pointwiseMin` and
/// `pointwiseMax` become a call per vector, `any(_:)` a call and a lane-by-lane reduction. The
/// kernels use the helpers below instead, which compile to one or two instructions each.
typealias ByteVector = SIMD16<UInt8>

extension SIMD16<UInt8> {
    /// The smaller of a and b in every lane (one `pminub`).
    @inline(__always)
    static func minimum(_ a: Self, _ b: Self) -> Self {
        a.replacing(with: b, where: b .< a)
    }

    /// The larger of a and b in every lane (one `pmaxub`).
    @inline(__always)
    static func maximum(_ a: Self, _ b: Self) -> Self {
        a.replacing(with: b, where: b .> a)
    }

    /// ⌈(a + b) / 2⌉ in every lane, without widening: SSE2's `pavgb` on x86, called by name,
    /// since LLVM turns any Swift spelling of it into the five-instruction carry-free form below.
    @inline(__always)
    static func ceilingAverage(_ a: Self, _ b: Self) -> Self {
        #if arch(x86_64)
        unsafeBitCast(_mm_avg_epu8(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)), to: Self.self)
        #else
        (a | b) &- ((a ^ b) &>> 1)  // the carry-free sum halved, rounded up
        #endif
    }

    /// ⌊(a + b) / 2⌋ in every lane, without widening.
    ///
    /// It is the rounding-up average of the complements, complemented:
    /// 255 − ⌈(510 − a − b) / 2⌉ = ⌊(a + b) / 2⌋, one `pavgb` on x86. Nested averages (the
    /// smoother's 1-2-1) then cost one instruction each plus the complements of their inputs:
    /// the inner complements cancel.
    @inline(__always)
    static func floorAverage(_ a: Self, _ b: Self) -> Self {
        #if arch(x86_64)
        ceilingAverage(a.complemented, b.complemented).complemented
        #else
        (a & b) &+ ((a ^ b) &>> 1)  // the carry-free sum halved
        #endif
    }

    /// Every lane complemented (255 − v).
    @inline(__always)
    var complemented: Self { self ^ Self(repeating: 0xFF) }

    /// |a − b| in every lane.
    @inline(__always)
    static func absoluteDifference(_ a: Self, _ b: Self) -> Self {
        maximum(a, b) &- minimum(a, b)
    }

    /// A mask of the lanes that are at least `floor` (given in every lane): bit i for lane i.
    ///
    /// On x86 it is `pmaxub`, `pcmpeqb` and `pmovmskb` (max(v, floor) = v exactly when
    /// v ≥ floor). The row scan of ``MotionRegionFinder`` tests a block of still pixels with it,
    /// and walks a vector's runs of moving pixels by counting its bits instead of testing each
    /// pixel with a branch it cannot predict.
    @inline(__always)
    func laneMask(atLeast floor: Self) -> UInt32 {
        #if arch(x86_64)
        let lanes = unsafeBitCast(self, to: __m128i.self)
        let reached = _mm_cmpeq_epi8(_mm_max_epu8(lanes, unsafeBitCast(floor, to: __m128i.self)), lanes)
        return UInt32(truncatingIfNeeded: _mm_movemask_epi8(reached))
        #else
        var mask: UInt32 = 0
        for lane in 0..<Self.scalarCount where self[lane] >= floor[lane] { mask |= 1 << lane }
        return mask
        #endif
    }
}

/// Calls `body` with the start of every 16-byte chunk that covers columns `0..<width`
/// (`width` ≥ 16). When `width` is not a multiple of 16 the last chunk starts at `width − 16`
/// and overlaps the one before it: recomputing a few columns is cheaper than a scalar tail,
/// and no load or store ever leaves the row.
@inline(__always)
func forEachChunkStart(coveringWidth width: Int, _ body: (Int) -> Void) {
    let chunk = ByteVector.scalarCount
    var x = 0
    // Wrapping arithmetic: x never passes `width`, and an overflow check per vector costs
    // the kernels a measurable share of their time.
    while x &+ chunk <= width {
        body(x)
        x &+= chunk
    }
    if x < width { body(width - chunk) }
}

/// Scalar counterparts of the vector helpers, for frames narrower than one vector.
enum ScalarBytes {
    @inline(__always)
    static func floorAverage(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) + Int(b)) >> 1)
    }

    /// |a − b|, without a branch: the comparison traces (``ComparisonWindow``) take it pixel by
    /// pixel over noisy texture, where which of the two is larger cannot be predicted.
    @inline(__always)
    static func absoluteDifference(_ a: UInt8, _ b: UInt8) -> UInt8 {
        let difference = Int(a) - Int(b)
        let sign = difference >> (Int.bitWidth - 1)
        return UInt8(truncatingIfNeeded: (difference ^ sign) - sign)
    }

    /// ⌈(a + b) / 2⌉.
    @inline(__always)
    static func roundedAverage(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) + Int(b) + 1) >> 1)
    }
}
