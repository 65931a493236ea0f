import Foundation
import Testing
import TrajectoryDrawing
import TrajectoryKit
import TrajectoryVideo

/// Colour pictures written by `PictureVideoWriter` and read back by `PictureReader`: same
/// frames, same times, same colours.
@Suite struct PictureRoundTripTests {
    static let size = (width: 64, height: 48)
    /// NTSC frame times in a 90 kHz time base, as MPEG-TS and many cameras count them.
    static let timing = StreamTiming(timeBase: Rational(1, 90_000), frameRate: Rational(30_000, 1001))
    static let ticksPerFrame: Int64 = 3003

    static func picture(frame: Int) -> YUVPicture {
        var picture = YUVPicture(width: size.width, height: size.height, fill: YUVColour(y: 126, cb: 128, cr: 128))
        let red = picture.encoding.yuv(red: 255, green: 0, blue: 0)
        picture.fill(PixelRect(minX: 4 + 2 * frame, minY: 16, maxX: 20 + 2 * frame, maxY: 32), red)
        return picture
    }

    @Test("frames, times and a red square survive the trip", arguments: [PictureVideoWriter.Codec.automatic, .mpeg4])
    func roundTrip(codec: PictureVideoWriter.Codec) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("colour.mp4")
        var writer = try PictureVideoWriter(path: path, width: Self.size.width, height: Self.size.height,
                                            timing: Self.timing, codec: codec)
        #expect(writer.encoderName == (codec == .mpeg4 ? "mpeg4" : "libx264"))
        let frameCount = 20
        for frame in 0..<frameCount {
            try writer.append(Self.picture(frame: frame), timestamp: Int64(frame) * Self.ticksPerFrame)
        }
        try writer.finish()

        var reader = try PictureReader(uri: path)
        #expect(reader.info.width == Self.size.width && reader.info.height == Self.size.height)
        var picture = YUVPicture(width: 1, height: 1)
        var frame = 0
        while let decoded = try reader.next(into: &picture) {
            #expect(abs(decoded.stamp.time - Double(frame) * Double(Self.ticksPerFrame) / 90_000) < 1e-4)
            let inside = picture.encoding.rgb(picture.colour(x: 12 + 2 * frame, y: 24))
            let outside = picture.encoding.rgb(picture.colour(x: 12 + 2 * frame, y: 40))
            #expect(inside.red > 200 && inside.green < 60 && inside.blue < 60, "frame \(frame): \(inside)")
            #expect(abs(Int(outside.red) - Int(outside.green)) < 20 && outside.red > 100 && outside.red < 160)
            frame += 1
        }
        #expect(frame == frameCount)
    }

    @Test("an odd size is coded one pixel larger, its last column and row repeated")
    func oddSize() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("odd.mp4")
        var picture = YUVPicture(width: 63, height: 47, fill: YUVColour(y: 126, cb: 128, cr: 128))
        // A red bar along the right edge, a blue one along the bottom.
        picture.fill(PixelRect(minX: 40, minY: 8, maxX: 63, maxY: 24), picture.encoding.yuv(red: 255, green: 0, blue: 0))
        picture.fill(PixelRect(minX: 8, minY: 32, maxX: 32, maxY: 47), picture.encoding.yuv(red: 0, green: 0, blue: 255))
        var writer = try PictureVideoWriter(path: path, width: 63, height: 47, timing: Self.timing)
        #expect(writer.codedWidth == 64 && writer.codedHeight == 48)
        for frame in 0..<3 { try writer.append(picture, timestamp: Int64(frame) * Self.ticksPerFrame) }
        try writer.finish()

        var reader = try PictureReader(uri: path)
        #expect(reader.info.width == 64 && reader.info.height == 48)
        var decoded = YUVPicture(width: 1, height: 1)
        var frames = 0
        while try reader.next(into: &decoded) != nil {
            let right = decoded.encoding.rgb(decoded.colour(x: 63, y: 16))
            let bottom = decoded.encoding.rgb(decoded.colour(x: 20, y: 47))
            #expect(right.red > 200 && right.green < 60 && right.blue < 60, "repeated column: \(right)")
            #expect(bottom.blue > 200 && bottom.red < 60 && bottom.green < 60, "repeated row: \(bottom)")
            frames += 1
        }
        #expect(frames == 3)
    }

    @Test("drawing told to stop ends early: no picture drawn after the stop, and no error for the snapshot it missed",
          arguments: [false, true])
    func stoppedDrawing(stopFirst: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("colour.mp4")
        var writer = try PictureVideoWriter(path: path, width: Self.size.width, height: Self.size.height, timing: Self.timing)
        let frameCount = 12
        for frame in 0..<frameCount { try writer.append(Self.picture(frame: frame), timestamp: Int64(frame) * Self.ticksPerFrame) }
        try writer.finish()
        let overlayPath = directory.file("overlay.mp4"), snapshotPath = directory.file("snapshot.png")

        let stopper = RunStopper()
        if stopFirst { stopper.requestStop() }
        let outcome = try TrajectoryPictures.render(
            uri: path, history: TrajectoryHistory(), regionOfInterest: .full, overlayPath: overlayPath,
            snapshotPath: snapshotPath, stopper: stopper)

        // The same call without the stop draws everything: the stop is what makes the difference.
        #expect(outcome.stoppedEarly == stopFirst)
        #expect(outcome.framesWritten == (stopFirst ? 0 : frameCount))
        #expect((outcome.snapshotFrame == nil) == stopFirst)
        #expect(FileManager.default.fileExists(atPath: overlayPath) == !stopFirst)
        #expect(FileManager.default.fileExists(atPath: snapshotPath) == !stopFirst)
    }
}
