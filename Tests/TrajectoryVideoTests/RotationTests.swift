import Testing
import TrajectoryKit
import TrajectoryVideo

/// A phone filming upright stores landscape pictures and a display matrix; the reader must
/// hand out what a player shows.
@Suite("Display rotation")
struct RotationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rotation: Int
        /// Where the coded picture's top-left corner appears when displayed.
        var markerCorner: (right: Bool, bottom: Bool)
        var testDescription: String { "\(rotation)° clockwise" }
    }

    static let cases = [
        Case(rotation: 0, markerCorner: (right: false, bottom: false)),
        Case(rotation: 90, markerCorner: (right: true, bottom: false)),
        Case(rotation: 180, markerCorner: (right: true, bottom: true)),
        Case(rotation: 270, markerCorner: (right: false, bottom: true)),
    ]

    @Test("the displayed size and the marker's corner are what a player shows", arguments: cases)
    func rotated(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("rotated.mp4")
        let coded = (width: 96, height: 64)
        let marker = 8
        // A bright marker in the top-left corner of the coded picture.
        var picture = LumaImage(width: coded.width, height: coded.height, fill: 64)
        for y in 0..<marker {
            for x in 0..<marker { picture[x, y] = 240 }
        }
        var writer = try VideoWriter(path: path, width: coded.width, height: coded.height,
                                     settings: quickSettings(rotation: testCase.rotation))
        for _ in 0..<3 {
            try writer.append(picture)
        }
        try writer.finish()

        var reader = try VideoReader(uri: path)
        let turned = testCase.rotation % 180 != 0
        let displayed = turned ? (width: coded.height, height: coded.width) : coded
        #expect(reader.info.rotation == testCase.rotation)
        #expect(reader.info.width == displayed.width && reader.info.height == displayed.height)
        let frame = try #require(try reader.nextImage())
        #expect(frame.image.width == displayed.width && frame.image.height == displayed.height)

        let expectedX = testCase.markerCorner.right ? displayed.width - marker / 2 : marker / 2
        let expectedY = testCase.markerCorner.bottom ? displayed.height - marker / 2 : marker / 2
        let centroid = try #require(MovingSquare(background: 64, square: 240).brightCentroid(of: frame.image))
        #expect(abs(centroid.x - Double(expectedX)) < 0.5 && abs(centroid.y - Double(expectedY)) < 0.5)
    }

    @Test("every pixel lands where the rotation puts it, also at edges that are not whole 8 × 8 blocks",
          arguments: cases.map(\.rotation))
    func everyPixel(rotation: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pattern.mp4")
        let coded = (width: 100, height: 62)
        var picture = LumaImage(width: coded.width, height: coded.height)
        for y in 0..<coded.height {
            for x in 0..<coded.width { picture[x, y] = UInt8((x * 7 + y * 13) % 251) }
        }
        // crf 0 codes luma losslessly, so the comparison can be exact.
        var writer = try VideoWriter(path: path, width: coded.width, height: coded.height,
                                     settings: quickSettings(crf: 0, rotation: rotation))
        try writer.append(picture)
        try writer.finish()

        var reader = try VideoReader(uri: path)
        let shown = try #require(try reader.nextImage()).image

        let expected = Self.rotate(picture, clockwise: rotation)
        try #require(shown.width == expected.width && shown.height == expected.height)
        let wrong = shown.pixels.indices.filter { shown.pixels[$0] != expected.pixels[$0] }
        #expect(wrong.isEmpty, "\(wrong.count) pixels differ, the first at x \((wrong.first ?? 0) % shown.width), y \((wrong.first ?? 0) / shown.width)")
    }

    /// The reference: pixel by pixel, what a clockwise turn by `degrees` shows.
    static func rotate(_ image: LumaImage, clockwise degrees: Int) -> LumaImage {
        let (width, height) = (image.width, image.height)
        let turned = degrees % 180 != 0
        var result = LumaImage(width: turned ? height : width, height: turned ? width : height)
        for y in 0..<result.height {
            for x in 0..<result.width {
                result[x, y] = switch degrees {
                case 90: image[y, height - 1 - x]
                case 180: image[width - 1 - x, height - 1 - y]
                case 270: image[width - 1 - y, x]
                default: image[x, y]
                }
            }
        }
        return result
    }
}
