/// The SIMD vector the detector's kernels work in: 16 luma bytes.
///
/// On this compiler `SIMD16<UInt8>` operations compile to single SSE instructions, while
/// `SIMD32<UInt8>` falls back to lane-by-lane code, so wider is not faster here.
typealias ByteVector = SIMD16<UInt8>

extension SIMD16<UInt8> {
    /// ⌊(a + b) / 2⌋ in every lane, without widening: the carry-free sum halved.
    @inline(__always)
    static func floorAverage(_ a: Self, _ b: Self) -> Self {
        (a & b) &+ ((a ^ b) &>> 1)
    }

    /// |a − b| in every lane.
    @inline(__always)
    static func absoluteDifference(_ a: Self, _ b: Self) -> Self {
        pointwiseMax(a, b) &- pointwiseMin(a, b)
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
    while x + chunk <= width {
        body(x)
        x += chunk
    }
    if x < width { body(width - chunk) }
}

/// Scalar counterparts of the vector helpers, for frames narrower than one vector.
enum ScalarBytes {
    @inline(__always)
    static func floorAverage(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) + Int(b)) >> 1)
    }

    @inline(__always)
    static func absoluteDifference(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a > b ? a - b : b - a
    }
}
