/// How far the whole picture moved between an earlier frame and a later one, in pixels: a still
/// point of the scene that shows at (x, y) in the earlier frame shows at (x + dx, y + dy) in the
/// later one. A hand-held camera's shake moves the picture by a few pixels, often by fractions
/// of one; a camera on a tripod does not move it at all (``zero``).
public struct CameraMotion: Sendable, Hashable {
    public var dx: Double
    public var dy: Double

    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// A camera that did not move.
    public static let zero = CameraMotion(dx: 0, dy: 0)

    /// The motion over two steps: this one, then `next`.
    func followed(by next: CameraMotion) -> CameraMotion {
        CameraMotion(dx: dx + next.dx, dy: dy + next.dy)
    }
}

/// Where to read an earlier frame to see what each pixel of the current frame showed in it,
/// when the camera moved by `motion` in between: at (column − dx, row − dy), and how much a
/// current pixel must differ from it there to count as changed.
///
/// That place usually falls between pixels. The earlier frame is blended there from the (up to)
/// 2 × 2 pixels around it, to the nearest quarter of a pixel in each direction, and the change
/// is how far the current pixel lies from the blend, less a quarter of the range of those
/// pixels. The allowance absorbs what blending misses: the quarter-pixel rounding, what a
/// sub-pixel shift does to sharp detail beyond a straight blend (two frames sampled at
/// different phases do not blur a thin line alike), and an error of a few hundredths of a pixel
/// in the estimated motion, each at most a fraction of the local range; on flat background
/// it is nothing, so a ball keeps its contrast there, and even a ball moving a pixel a frame
/// still shows. With no motion the blend is the pixel itself and the change the plain absolute
/// difference.
struct EarlierFrameSampling {
    /// The offset from a current pixel to the earlier frame's top-left pixel of its
    /// neighbourhood, the place rounded to the quarter.
    let column: Int, row: Int
    /// The whole-pixel part of the exact offset, ⌊−dx⌋ and ⌊−dy⌋, and how far the place lies
    /// right of and below that pixel, in [0, 1).
    let baseColumn: Int, baseRow: Int
    let fractionX: Double, fractionY: Double
    /// The same to the nearest quarter of a pixel (0…3), for the vector kernels.
    let quartersX: Int, quartersY: Int
    /// 1 when the neighbourhood is two pixels wide (the place is not on a whole column, to the
    /// quarter), else 0; likewise down.
    let stepX: Int, stepY: Int
    /// Whether the camera did not move: every pixel is read at its own place.
    let isStill: Bool

    /// The change is reduced by the neighbourhood's range shifted right by this many bits (a quarter).
    static let allowanceShift: UInt8 = 2

    init(_ motion: CameraMotion) {
        let x = -motion.dx, y = -motion.dy
        let wholeX = x.rounded(.down), wholeY = y.rounded(.down)
        baseColumn = Int(wholeX)
        baseRow = Int(wholeY)
        fractionX = x - wholeX
        fractionY = y - wholeY
        // A place within an eighth of a pixel of the next whole pixel is read there.
        let roundedX = Int((fractionX * 4).rounded()), roundedY = Int((fractionY * 4).rounded())
        column = Int(wholeX) + roundedX / 4
        row = Int(wholeY) + roundedY / 4
        quartersX = roundedX % 4
        quartersY = roundedY % 4
        stepX = quartersX > 0 ? 1 : 0
        stepY = quartersY > 0 ? 1 : 0
        isStill = motion == .zero
    }

    /// The columns of the current frame whose neighbourhood in the earlier frame lies inside a
    /// frame `width` pixels wide.
    func columns(width: Int) -> Range<Int> {
        Self.clamped(lower: -column, upper: width - stepX - column, size: width)
    }

    /// The rows of the current frame whose neighbourhood lies inside a frame `height` rows high.
    func rows(height: Int) -> Range<Int> {
        Self.clamped(lower: -row, upper: height - stepY - row, size: height)
    }

    /// The change of `now`, the current frame's value at (`column`, `row`), from the earlier
    /// frame; 0 when the neighbourhood leaves the frame.
    @inline(__always)
    func change(now: UInt8, column: Int, row: Int, earlier: Span<UInt8>, layout: PlaneLayout) -> UInt8 {
        let x = column + self.column, y = row + self.row
        guard x >= 0, y >= 0, x + stepX < layout.width, y + stepY < layout.height else { return 0 }
        let topLeft = y * layout.bytesPerRow + x, bottomLeft = topLeft + stepY * layout.bytesPerRow
        let a = earlier[topLeft], b = earlier[topLeft + stepX]
        let c = earlier[bottomLeft], d = earlier[bottomLeft + stepX]
        let blend = Self.blend(Self.blend(a, b, quarters: quartersX), Self.blend(c, d, quarters: quartersX), quarters: quartersY)
        let allowance = (max(a, b, c, d) - min(a, b, c, d)) >> Self.allowanceShift
        let difference = ScalarBytes.absoluteDifference(now, blend)
        return difference > allowance ? difference - allowance : 0
    }

    /// The earlier frame's value at the place of (`column`, `row`), blended bilinearly from its
    /// neighbourhood at the exact fraction; places beyond the frame's edge read the edge.
    @inline(__always)
    func interpolated(column: Int, row: Int, earlier: Span<UInt8>, layout: PlaneLayout) -> Double {
        let left = Self.clamp(column + baseColumn, layout.width), right = Self.clamp(column + baseColumn + 1, layout.width)
        let top = Self.clamp(row + baseRow, layout.height), bottom = Self.clamp(row + baseRow + 1, layout.height)
        let a = Double(earlier[top * layout.bytesPerRow + left]), b = Double(earlier[top * layout.bytesPerRow + right])
        let c = Double(earlier[bottom * layout.bytesPerRow + left])
        let d = Double(earlier[bottom * layout.bytesPerRow + right])
        let upper = a + (b - a) * fractionX, lower = c + (d - c) * fractionX
        return upper + (lower - upper) * fractionY
    }

    /// `a` and `b` blended at `quarters` quarters of the way from `a` to `b`, from rounded means.
    @inline(__always)
    static func blend(_ a: UInt8, _ b: UInt8, quarters: Int) -> UInt8 {
        switch quarters {
        case 0: a
        case 1: ScalarBytes.roundedAverage(a, ScalarBytes.roundedAverage(a, b))
        case 2: ScalarBytes.roundedAverage(a, b)
        default: ScalarBytes.roundedAverage(ScalarBytes.roundedAverage(a, b), b)
        }
    }

    private static func clamp(_ value: Int, _ size: Int) -> Int { min(max(value, 0), size - 1) }

    private static func clamped(lower: Int, upper: Int, size: Int) -> Range<Int> {
        let start = min(max(lower, 0), size), end = min(max(upper, start), size)
        return start..<end
    }
}

extension SIMD16<UInt8> {
    /// ⌈(a + b) / 2⌉ in every lane (one `pavgb`).
    @inline(__always)
    static func roundedAverage(_ a: Self, _ b: Self) -> Self {
        (a | b) &- ((a ^ b) &>> 1)
    }

    /// ``EarlierFrameSampling/blend(_:_:quarters:)`` in every lane.
    @inline(__always)
    static func blend(_ a: Self, _ b: Self, quarters: Int) -> Self {
        switch quarters {
        case 0: a
        case 1: roundedAverage(a, roundedAverage(a, b))
        case 2: roundedAverage(a, b)
        default: roundedAverage(roundedAverage(a, b), b)
        }
    }

    /// |value − blend| less `allowance`, or 0, in every lane.
    @inline(__always)
    static func change(of value: Self, from blend: Self, allowance: Self) -> Self {
        let difference = absoluteDifference(value, blend)
        return maximum(difference, allowance) &- allowance
    }
}
