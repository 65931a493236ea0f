import Foundation
import TestSupport
import Testing
import TrajectoryDrawing
import TrajectoryKit
import TrajectoryVideo

/// Re-encoded clips late in a video: decoding starts at the keyframe before the earliest one
/// (MP4, whose index lists its keyframes) or at the start (MPEG-TS, which lists none), and
/// either way each clip begins on the source frame it claims and holds every frame of its range.
@Suite struct ClipSeekTests {
    /// 12 s of `testsrc2` at 30 frames/s (a picture that changes every frame), keyframes every 2 s.
    static func makeSource(in folder: URL, container: String) throws -> String {
        let path = folder.appendingPathComponent("source.\(container)").path
        try FFmpeg.run([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-t", "12", "-c:v", "libx264", "-preset", "ultrafast",
            "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-pix_fmt", "yuv420p", path,
        ])
        return path
    }

    @Test("a reader seeks an MP4 to the keyframe at or before a time, and does not try an MPEG-TS", arguments: ["mp4", "ts"])
    func seek(container: String) throws {
        let folder = try TestFolder.fresh()
        var reader = try PictureReader(uri: try Self.makeSource(in: folder, container: container))
        var picture = YUVPicture(width: 1, height: 1)
        let outcome = reader.seek(toKeyframeAtOrBefore: 7.3)
        let first = try #require(try reader.next(into: &picture))
        if container == "mp4" {
            #expect(outcome == .seeked)
            #expect(abs(first.stamp.time - 6) < 1e-3, "the keyframe at 6 s, got \(first.stamp.time)")
        } else {
            #expect(outcome == .notTried)
            #expect(first.stamp.time < 0.1, "the stream's first frame, got \(first.stamp.time)")
        }
        #expect(reader.seek(toKeyframeAtOrBefore: .infinity) == .notTried)
    }

    @Test("a stream-copied piece ends on the frame at its end time, as a re-encoded one does", arguments: ["mp4", "ts"])
    func streamCopyKeepsTheLastFrame(container: String) throws {
        let folder = try TestFolder.fresh()
        let source = try Self.makeSource(in: folder, container: container)
        let frames = try PictureCommandTests.decodeAll(source)
        // From the keyframe at 4 s to the time of each of the next 12 frames: at 90 000 ticks a
        // second (MPEG-TS), a third of frame times divide to just under their tick.
        let keyframe = try #require(frames.firstIndex { abs($0.time - 4) < 1e-6 })
        let ends = (keyframe + 5)...(keyframe + 16)
        let pieces = ends.map { last in
            VideoClipper.Piece(path: folder.appendingPathComponent("to-\(last).mp4").path, start: 4, end: frames[last].time)
        }
        for (last, clip) in zip(ends, try VideoClipper.cut(uri: source, pieces: pieces)) {
            #expect(clip.method == .streamCopy)
            #expect(clip.frameCount == last - keyframe + 1, "up to frame \(last) at \(frames[last].time) s")
            #expect(abs(clip.decodedFrom - 4) < 1e-3, "copied from the keyframe at 4 s, got \(clip.decodedFrom)")
        }
    }

    @Test("late pieces are re-encoded from the frames they claim, whether the container can seek or not", arguments: ["mp4", "ts"])
    func latePieces(container: String) throws {
        let folder = try TestFolder.fresh()
        let source = try Self.makeSource(in: folder, container: container)
        // Their keyframes, at 4 and 8 s, lie 1.3 and 1.51 s before them, more than the 0.2 s
        // lead-in allowed here: both are re-encoded, in one pass. The second starts between frames.
        let pieces = [
            VideoClipper.Piece(path: folder.appendingPathComponent("a.mp4").path, start: 5.3, end: 6.0),
            VideoClipper.Piece(path: folder.appendingPathComponent("b.mp4").path, start: 9.51, end: 10.2),
        ]
        let clips = try VideoClipper.cut(uri: source, pieces: pieces, maximumLeadIn: 0.2)
        let frames = try PictureCommandTests.decodeAll(source)
        let frameDuration = 1.0 / 30
        // One pass of decoding for both: from the keyframe at 4 s, before the earlier piece,
        // where the MP4's index lets the reader seek; from the start of the MPEG-TS.
        let decodingStart = container == "mp4" ? 4.0 : frames[0].time
        for (piece, clip) in zip(pieces, clips) {
            #expect(clip.method == .reEncoded)
            #expect(abs(clip.decodedFrom - decodingStart) < 1e-3, "\(piece.path) decoded from \(clip.decodedFrom) s")
            // The first frame at or after the start, and every frame to the end.
            let first = try #require(frames.firstIndex { $0.time >= piece.start - 1e-6 })
            let last = try #require(frames.lastIndex { $0.time <= piece.end + 1e-6 })
            #expect(abs(clip.sourceStart - frames[first].time) < 1e-3, "\(piece.path) starts at \(clip.sourceStart)")
            #expect(clip.frameCount == last - first + 1)
            let written = try PictureCommandTests.decodeAll(clip.path)
            #expect(written.count == clip.frameCount)
            // Each written frame is nearest, by content, to the source frame of its time.
            for (offset, frame) in written.enumerated() where offset % 5 == 0 {
                let index = first + offset
                #expect(abs(clip.sourceStart + frame.time - frames[index].time) < frameDuration / 2)
                let neighbours = max(0, index - 2)...min(frames.count - 1, index + 2)
                let best = neighbours.min {
                    PictureCommandTests.difference(frames[$0].picture, frame.picture)
                        < PictureCommandTests.difference(frames[$1].picture, frame.picture)
                }
                #expect(best == index, "\(piece.path) frame \(offset)")
            }
        }
    }

    @Test("a cut told to stop before it starts writes no clip, copied or re-encoded")
    func stoppedBeforeCutting() throws {
        let folder = try TestFolder.fresh()
        let source = try Self.makeSource(in: folder, container: "mp4")
        // The first starts on a keyframe (a stream copy), the second 1.3 s after one (re-encoded).
        let pieces = [
            VideoClipper.Piece(path: folder.appendingPathComponent("a.mp4").path, start: 4.0, end: 5.0),
            VideoClipper.Piece(path: folder.appendingPathComponent("b.mp4").path, start: 5.3, end: 6.0),
        ]
        let stopper = RunStopper()
        stopper.requestStop()
        #expect(try VideoClipper.cut(uri: source, pieces: pieces, maximumLeadIn: 0.2, stopper: stopper).isEmpty)
        #expect(!pieces.contains { FileManager.default.fileExists(atPath: $0.path) })
        // Without the stop, the same call writes both.
        #expect(try VideoClipper.cut(uri: source, pieces: pieces, maximumLeadIn: 0.2).map(\.method) == [.streamCopy, .reEncoded])
    }

    @Test("a piece whose range is not a span of the video is refused, not cut", arguments: [
        (Double.infinity, Double.infinity), (2.0, 1.0), (-1.0, 1.0), (Double.nan, 1.0),
    ])
    func badRange(start: Double, end: Double) throws {
        let folder = try TestFolder.fresh()
        let path = folder.appendingPathComponent("bad.mp4").path
        // The range is refused before the input is opened: a missing input would say so instead.
        let missing = folder.appendingPathComponent("no-such-input.mp4").path
        #expect {
            _ = try VideoClipper.cut(uri: missing, pieces: [VideoClipper.Piece(path: path, start: start, end: end)])
        } throws: { error in
            (error as? VideoError)?.kind == .invalidSettings
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
