import Foundation
import Synchronization
import Testing
import TrajectoryKit
import TrajectoryVideo

#if canImport(Glibc)
import Glibc
#endif

/// How far decoding runs ahead of the analysis: far enough to ride out the analysis's slow
/// stretches, in bytes so that large frames do not take much more memory.
@Suite("Decoding ahead of the analysis")
struct DecodingLookaheadTests {
    @Test("by default 14 frames of 720p wait, 6 of 1080p or 4K, and 32 of small frames")
    func defaultDepths() {
        let lookahead = DecodingLookahead.default
        #expect(lookahead.frames(ofBytes: 1280 * 720) == 14)
        #expect(lookahead.frames(ofBytes: 1920 * 1080) == 6)
        #expect(lookahead.frames(ofBytes: 3840 * 2160) == 6)
        #expect(lookahead.frames(ofBytes: 320 * 240) == 32)
    }

    @Test("a frame joins while under both bounds, or while fewer than the frames beyond the budget wait")
    func takesAnother() {
        let lookahead = DecodingLookahead(maximumFrames: 10, byteBudget: 1000, framesBeyondBudget: 3)
        #expect(lookahead.takesAnother(queuedFrames: 2, queuedBytes: 5000))
        #expect(!lookahead.takesAnother(queuedFrames: 3, queuedBytes: 1000))
        #expect(lookahead.takesAnother(queuedFrames: 9, queuedBytes: 999))
        #expect(!lookahead.takesAnother(queuedFrames: 10, queuedBytes: 0))
    }

    /// Grey frames of `width` × `height` as a YUV4MPEG2 stream, which FFmpeg reads from a pipe
    /// a frame at a time.
    private struct GreyStream {
        var width = 320, height = 240

        var header: Data { Data("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 Cmono\n".utf8) }

        func frame(_ index: Int) -> Data {
            var bytes = Data("FRAME\n".utf8)
            bytes.append(Data((0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 &+ index) }))
            return bytes
        }
    }

    @Test(
        "decoding runs ahead of a stalled analysis as far as the lookahead allows, and no further",
        arguments: [
            // (lookahead, frames that may wait for the analysis)
            (DecodingLookahead(maximumFrames: 32, byteBudget: 10 * 320 * 240, framesBeyondBudget: 4), 10),
            (DecodingLookahead(maximumFrames: 16, byteBudget: 1 << 30, framesBeyondBudget: 4), 16),
            (DecodingLookahead(maximumFrames: 32, byteBudget: 1, framesBeyondBudget: 4), 4),
        ])
    func decodingStopsAtTheLookahead(lookahead: DecodingLookahead, waiting: Int) throws {
        let stream = GreyStream(), frameCount = 60
        let ends = try PipeEnds()
        let written = Atomic<Int>(0)
        Thread {
            var bytes = stream.header
            for index in 0..<frameCount {
                bytes.append(stream.frame(index))
                ends.write(bytes, thenClose: false)
                bytes.removeAll()
                written.add(1, ordering: .sequentiallyConsistent)
            }
            close(ends.writeEnd)
        }.start()

        var writtenWhileStalled: Int?
        let request = try DetectTrajectoriesRequest(trajectoryLength: 5)
        let summary = try VideoTrajectoryDetection.run(uri: "pipe:\(ends.readEnd)", request: request, lookahead: lookahead) { frame in
            guard frame.stamp.index == 0 else { return }
            // Stall the analysis until the writer has been blocked for a while: decoding has
            // then filled the queue and stopped reading.
            var last = -1
            while written.load(ordering: .sequentiallyConsistent) != last {
                last = written.load(ordering: .sequentiallyConsistent)
                Thread.sleep(forTimeInterval: 0.4)
            }
            writtenWhileStalled = last
        }
        #expect(summary.framesDecoded == frameCount)
        // Beyond the frames waiting: the frame being analysed, the one the decoding thread
        // holds until there is room, and at most one more in FFmpeg's and the pipe's buffers.
        let stalled = try #require(writtenWhileStalled)
        #expect((waiting + 1)...(waiting + 3) ~= stalled, "frames written while the analysis stalled: \(stalled)")
    }
}
