import TrajectoryKit

/// A tiny 5 × 7 pixel font with the characters a uuid tag needs: digits, lower-case a–f and
/// `-`. Each glyph is seven rows of five bits, the high bit left.
public enum BitmapFont {
    public static let glyphWidth = 5
    public static let glyphHeight = 7
    /// Blank columns between two glyphs.
    public static let spacing = 1

    /// The rows of `character`'s glyph, or nil when the font lacks it (it is drawn as a gap).
    public static func glyph(_ character: Character) -> [UInt8]? {
        glyphs[character]
    }

    /// The size of `text` drawn at `scale` pixels per font pixel.
    public static func size(of text: String, scale: Int) -> (width: Int, height: Int) {
        let count = text.count
        guard count > 0 else { return (0, 0) }
        return ((count * (glyphWidth + spacing) - spacing) * scale, glyphHeight * scale)
    }

    private static let glyphs: [Character: [UInt8]] = [
        "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        "3": [0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110],
        "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        "a": [0b00000, 0b00000, 0b01110, 0b00001, 0b01111, 0b10001, 0b01111],
        "b": [0b10000, 0b10000, 0b10110, 0b11001, 0b10001, 0b10001, 0b11110],
        "c": [0b00000, 0b00000, 0b01110, 0b10000, 0b10000, 0b10001, 0b01110],
        "d": [0b00001, 0b00001, 0b01101, 0b10011, 0b10001, 0b10001, 0b01111],
        "e": [0b00000, 0b00000, 0b01110, 0b10001, 0b11111, 0b10000, 0b01110],
        "f": [0b00110, 0b01001, 0b01000, 0b11100, 0b01000, 0b01000, 0b01000],
        "-": [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000],
    ]
}

extension YUVPicture {
    /// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a `scale` × `scale`
    /// square. Characters the font lacks leave a gap.
    public mutating func drawText(_ text: String, x: Int, y: Int, scale: Int, _ colour: YUVColour) {
        let advance = (BitmapFont.glyphWidth + BitmapFont.spacing) * scale
        for (index, character) in text.enumerated() {
            guard let rows = BitmapFont.glyph(character) else { continue }
            let left = x + index * advance
            for (row, bits) in rows.enumerated() {
                for column in 0..<BitmapFont.glyphWidth where bits & (1 << (BitmapFont.glyphWidth - 1 - column)) != 0 {
                    let pixelX = left + column * scale, pixelY = y + row * scale
                    fill(PixelRect(minX: pixelX, minY: pixelY, maxX: pixelX + scale, maxY: pixelY + scale), colour)
                }
            }
        }
    }
}
