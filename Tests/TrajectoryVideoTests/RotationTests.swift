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
}
