import Testing
import TrajectoryKit
import TrajectoryVideo

/// The reader lends 8-bit luma planes as they are and converts every other pixel format with
/// swscale; both paths must give the same picture.
@Suite("Every pixel format gives the same luma picture")
struct PixelFormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var format: VideoWriter.Format
        var fileName: String
        /// What FFmpeg decodes it to, so the test knows which path it exercised.
        var decodedPixelFormat: String
        var testDescription: String { "\(format.rawValue) → \(decodedPixelFormat)" }
    }

    static let cases = [
        Case(format: .h264, fileName: "clip.mp4", decodedPixelFormat: "yuvj420p"),  // lent as is
        Case(format: .h264TenBit, fileName: "clip.mp4", decodedPixelFormat: "yuv420p10le"),
        Case(format: .h264RGB, fileName: "clip.mp4", decodedPixelFormat: "gbrp"),
        Case(format: .gif, fileName: "clip.gif", decodedPixelFormat: "bgra"),
        Case(format: .pngPaletted, fileName: "clip.mov", decodedPixelFormat: "pal8"),
    ]

    @Test("lossless coding of each kind decodes to the written grey levels, ±1", arguments: cases)
    func sameLuma(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(testCase.fileName)
        // A gradient under the square exercises every grey level, not just two.
        let scene = MovingSquare(width: 256, height: 64, side: 12, top: 20)
        func picture(_ index: Int) -> LumaImage {
            var image = scene.image(index)
            for y in 40..<64 {
                for x in 0..<256 { image[x, y] = UInt8(x) }
            }
            return image
        }
        var writer = try VideoWriter(path: path, width: scene.width, height: scene.height,
                                     settings: quickSettings(testCase.format, frameRate: 25, crf: 0))
        for index in 0..<6 {
            try writer.append(picture(index))
        }
        try writer.finish()

        let (info, frames, warnings) = try decodeAll(path)

        #expect(info.pixelFormat == testCase.decodedPixelFormat)
        #expect(frames.count == 6)
        #expect(warnings.isEmpty)
        for (index, frame) in frames.enumerated() {
            #expect(maximumAbsoluteError(frame.image, picture(index)) <= 1, "frame \(index)")
        }
    }
}
