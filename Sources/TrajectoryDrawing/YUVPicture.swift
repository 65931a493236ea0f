/// A colour picture as video stores it: 8-bit luma for every pixel and two chroma planes
/// (Cb, Cr) at half the width and half the height (4:2:0), each plane packed row after row.
///
/// Drawing happens in this form, so an overlay costs no colour conversion per frame. A
/// picture is meant to be reused from frame to frame: ``resize(width:height:)`` keeps the
/// planes' storage, so decoding into it allocates nothing once the size is known.
public struct YUVPicture: Sendable, Hashable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// `width` × `height` luma samples.
    public var luma: [UInt8]
    /// `chromaWidth` × `chromaHeight` blue-difference samples.
    public var cb: [UInt8]
    /// `chromaWidth` × `chromaHeight` red-difference samples.
    public var cr: [UInt8]
    /// How the samples map to RGB.
    public var encoding: ColourEncoding

    /// A `width` × `height` picture filled with `colour` (black by default).
    public init(width: Int, height: Int, encoding: ColourEncoding = .standardDefinition, fill colour: YUVColour? = nil) {
        precondition(width > 0 && height > 0, "a picture needs a positive size")
        self.width = width
        self.height = height
        self.encoding = encoding
        let colour = colour ?? encoding.yuv(red: 0, green: 0, blue: 0)
        let chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        luma = Array(repeating: colour.y, count: width * height)
        cb = Array(repeating: colour.cb, count: chromaCount)
        cr = Array(repeating: colour.cr, count: chromaCount)
    }

    /// Chroma samples per row: a chroma sample covers 2 × 2 pixels.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// Chroma rows.
    public var chromaHeight: Int { (height + 1) / 2 }

    /// Changes the size, keeping the planes' storage when it is big enough. The contents are
    /// then undefined until written.
    public mutating func resize(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a picture needs a positive size")
        guard width != self.width || height != self.height else { return }
        self.width = width
        self.height = height
        let chromaCount = chromaWidth * chromaHeight
        Self.resize(&luma, count: width * height)
        Self.resize(&cb, count: chromaCount)
        Self.resize(&cr, count: chromaCount)
    }

    /// Resizes `plane` in place, so its storage is kept (a copy would be made while the
    /// picture still held the old one).
    private static func resize(_ plane: inout [UInt8], count: Int) {
        if plane.count > count {
            plane.removeLast(plane.count - count)  // keeps the capacity
        } else {
            plane.append(contentsOf: repeatElement(0, count: count - plane.count))
        }
    }

    /// The colour of pixel (`x`, `y`), top-left origin.
    public func colour(x: Int, y: Int) -> YUVColour {
        let chroma = (y / 2) * chromaWidth + x / 2
        return YUVColour(y: luma[y * width + x], cb: cb[chroma], cr: cr[chroma])
    }

    /// Paints pixel (`x`, `y`) when it lies inside the picture; its chroma sample, shared with
    /// three neighbours, takes the new colour too.
    @inlinable
    public mutating func paint(x: Int, y: Int, _ colour: YUVColour) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        luma[y * width + x] = colour.y
        let chroma = (y >> 1) * ((width + 1) >> 1) + (x >> 1)
        cb[chroma] = colour.cb
        cr[chroma] = colour.cr
    }

    /// Paints the pixels `x0..<x1` of row `y` (clipped to the picture).
    public mutating func paintRow(y: Int, from x0: Int, to x1: Int, _ colour: YUVColour) {
        guard y >= 0, y < height else { return }
        let start = max(0, x0), end = min(width, x1)
        guard start < end else { return }
        let row = y * width
        for x in start..<end { luma[row + x] = colour.y }
        let chromaRow = (y >> 1) * chromaWidth
        for x in (start >> 1)...((end - 1) >> 1) {
            cb[chromaRow + x] = colour.cb
            cr[chromaRow + x] = colour.cr
        }
    }
}
