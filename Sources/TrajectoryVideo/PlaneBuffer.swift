import TrajectoryKit

/// A byte buffer for one picture plane, reused from frame to frame: it grows when a bigger
/// plane comes and is never shrunk or freed before `deinit`, so decoding allocates nothing
/// per frame. Rows start on 64-byte boundaries, which SIMD code on both sides likes.
struct PlaneBuffer: ~Copyable {
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0

    static let rowAlignment = 64

    init() {}

    deinit { storage?.deallocate() }

    /// The layout of a `width` × `height` plane in this buffer: rows padded to the alignment.
    static func layout(width: Int, height: Int) -> PlaneLayout {
        let bytesPerRow = (width + rowAlignment - 1) / rowAlignment * rowAlignment
        return PlaneLayout(width: width, height: height, bytesPerRow: bytesPerRow)
    }

    /// Room for a plane of `layout`, keeping the current storage when it is big enough.
    /// The contents are undefined until written.
    mutating func reserve(_ layout: PlaneLayout) -> UnsafeMutablePointer<UInt8> {
        // swscale may write whole SIMD words at the end of the last row: keep a row of slack.
        let needed = (layout.height + 1) * layout.bytesPerRow
        if needed > capacity {
            storage?.deallocate()
            storage = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: Self.rowAlignment)
            capacity = needed
        }
        return storage!.assumingMemoryBound(to: UInt8.self)
    }
}
