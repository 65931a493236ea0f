import Foundation
import Testing
import TrajectoryKit
import TrajectoryVideo

/// `shared/clips` beside the repository: this file is Tests/TrajectoryVideoTests/ in it.
let sharedClips = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/clips").path
let sharedClipsAvailable = FileManager.default.fileExists(atPath: sharedClips + "/carried-by-hand.mp4")

/// Footage filmed by others (`../shared/clips`, see its README): what works on generated clips
/// must work on a real camera's files, which carry AAC audio and irregular timestamps.
@Suite("Real footage", .enabled(if: sharedClipsAvailable))
struct RealFootageTests {
    static let clips = sharedClips

    @Test("info reads the video stream, not the audio; every listed frame decodes in time order",
          arguments: [("carried-by-hand.mp4", 29.95), ("toss-vertical.mp4", 29.83)])
    func decodesWhole(name: String, approximateFrameRate: Double) throws {
        var reader = try VideoReader(uri: Self.clips + "/" + name)
        let info = reader.info
        #expect(info.width == 1280 && info.height == 720 && info.rotation == 0)
        #expect(info.codec == "h264" && info.pixelFormat == "yuv420p")
        #expect(abs(info.frameRate - approximateFrameRate) < 0.01)
        #expect(info.frameCountSource == .container)

        var count = 0
        var previousTime = -Double.infinity
        var brightness = 0.0
        while let stamp = try reader.nextFrame({ plane, layout, stamp in
            #expect(layout.width == 1280 && layout.height == 720)
            brightness += Double(plane[layout.bytesPerRow * 360 + 640])
            return stamp
        }) {
            #expect(stamp.index == count)
            #expect(stamp.time > previousTime)
            previousTime = stamp.time
            count += 1
        }
        #expect(count == info.frameCount)
        #expect(reader.warnings.isEmpty)
        #expect(abs(previousTime - info.duration) < 2 / info.frameRate)
        #expect(brightness / Double(count) > 16)  // real pictures, not blank planes
    }

    @Test("without the loop filter: the same frames and stamps, every picture a little off the exact one, under a grey level on average")
    func skippedLoopFilter() throws {
        let path = Self.clips + "/toss-vertical.mp4"
        var exact = try VideoReader(uri: path)
        var skipping = try VideoReader(uri: path, loopFilter: .skipped)
        var frames = 0, framesThatDiffer = 0
        while let exactFrame = try exact.nextImage() {
            let exactImage = exactFrame.image
            let (image, stamp) = try #require(try skipping.nextImage())
            #expect(stamp == exactFrame.stamp)
            try #require(image.width == exactImage.width && image.height == exactImage.height)
            var totalDifference = 0
            for (a, b) in zip(image.pixels, exactImage.pixels) { totalDifference += abs(Int(a) - Int(b)) }
            // Measured with ffmpeg -skip_loop_filter all: 0.05 to 0.36 grey levels per frame.
            #expect(Double(totalDifference) / Double(image.pixels.count) < 1)
            if totalDifference > 0 { framesThatDiffer += 1 }
            frames += 1
        }
        #expect(try skipping.nextImage() == nil)
        #expect(frames == 60)
        #expect(framesThatDiffer == frames)
        #expect(skipping.warnings.isEmpty)
    }
}
