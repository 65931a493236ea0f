import Testing
import TrajectoryKit
import TrajectoryVideo

@Suite("Writing a clip and reading it back")
struct RoundTripTests {
    static let frameRates: [FrameRate] = [30, 60, .ntsc]

    @Test("frame count, size, rate and timestamps survive the round trip", arguments: frameRates)
    func stampsAndInfo(frameRate: FrameRate) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("square.mp4")
        let scene = MovingSquare()
        try scene.write(to: path, count: 30, settings: quickSettings(frameRate: frameRate))

        let (info, frames, warnings) = try decodeAll(path)

        #expect(info.width == scene.width && info.height == scene.height)
        #expect(info.codec == "h264")
        #expect(info.rotation == 0)
        #expect(abs(info.frameRate - frameRate.perSecond) < 1e-3)
        #expect(info.frameCount == 30 && info.frameCountSource == .container)
        #expect(abs(info.duration - 30 / frameRate.perSecond) < 1.5 / frameRate.perSecond)
        #expect(frames.count == 30)
        #expect(warnings.isEmpty)
        // Timestamps within half a frame of index / rate.
        for (index, frame) in frames.enumerated() {
            #expect(frame.stamp.index == index)
            #expect(abs(frame.stamp.time - Double(index) / frameRate.perSecond) < 0.5 / frameRate.perSecond)
        }
    }

    @Test("the picture survives: the square's centroid within 0.5 px, mean error under 1.5 levels")
    func lumaContent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("square.mp4")
        let scene = MovingSquare()
        try scene.write(to: path, count: 30, settings: quickSettings())

        let (_, frames, _) = try decodeAll(path)

        try #require(frames.count == 30)
        for (index, frame) in frames.enumerated() {
            let expected = scene.centre(ofFrame: index)
            let found = try #require(scene.brightCentroid(of: frame.image))
            #expect(abs(found.x - expected.x) < 0.5 && abs(found.y - expected.y) < 0.5, "frame \(index)")
            // x264 at crf 18 keeps flat areas exact and blurs the square's edges a little.
            #expect(meanAbsoluteError(frame.image, scene.image(index)) < 1.5, "frame \(index)")
        }
    }
}
