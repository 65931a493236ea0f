import CFFmpeg
import CVideoIO

/// Cuts one piece of a video by copying its packets, from the keyframe at or before the
/// piece's start to the end, without decoding.
enum StreamCopy {
    /// Writes `piece` by stream copy, or returns nil when the keyframe before its start lies
    /// more than `maximumLeadIn` seconds before it (the piece must then be re-encoded).
    static func cut(uri: String, piece: VideoClipper.Piece, maximumLeadIn: Double) throws(VideoError) -> VideoClipper.Clip? {
        let log = WarningLog()
        return try log.collecting { () throws(VideoError) -> VideoClipper.Clip? in
            var demuxer = try Demuxer(uri: uri, networkTimeout: VideoReader.defaultNetworkTimeout, log: log)
            let stream = demuxer.videoStream
            let timeBase = stream.pointee.time_base
            // Times count from the stream's start, as the reader's do; a stream that states none
            // counts from its first frame, which only decoding tells: re-encode then.
            let origin = stream.pointee.start_time
            guard origin != FFmpegCode.noTimestamp else { return nil }
            let clock = FrameClock(secondsPerTick: av_q2d(timeBase), startTime: origin, frameRate: 0)
            guard let start = clock.ticks(atSeconds: piece.start), let end = clock.ticks(atSeconds: piece.end),
                demuxer.seekToKeyframe(atOrBefore: start) >= 0, demuxer.readVideoPacket() >= 0
            else { return nil }
            let first = demuxer.packet.pointee
            let firstTime = first.pts != FFmpegCode.noTimestamp ? first.pts : first.dts
            guard first.flags & AV_PKT_FLAG_KEY != 0, firstTime != FFmpegCode.noTimestamp, firstTime <= start,
                  Double(start - firstTime) * av_q2d(timeBase) <= maximumLeadIn
            else { return nil }

            let sourceStart = Double(firstTime - origin) * av_q2d(timeBase)
            var muxer = try Muxer(path: piece.path, container: nil, codecID: stream.pointee.codecpar.pointee.codec_id, log: log)
            let rotation = Int(cvio_stream_display_rotation(stream).rounded()) % 360
            try muxer.start(
                copying: stream.pointee.codecpar, timeBase: timeBase, frameRate: stream.pointee.avg_frame_rate,
                rotation: rotation, metadata: [VideoClipper.sourceStartKey: VideoClipper.formatSeconds(sourceStart)])
            var frames = 0
            repeat {
                let packet = UnsafeMutablePointer(mutating: demuxer.packet)
                let decodeTime = packet.pointee.dts != FFmpegCode.noTimestamp ? packet.pointee.dts : packet.pointee.pts
                // Once a packet decodes after the end, every frame shown up to the end has been copied.
                if decodeTime != FFmpegCode.noTimestamp && decodeTime > end { break }
                if packet.pointee.pts != FFmpegCode.noTimestamp { packet.pointee.pts -= firstTime }
                if packet.pointee.dts != FFmpegCode.noTimestamp { packet.pointee.dts -= firstTime }
                packet.pointee.pos = -1
                try muxer.write(packet, timeBase: timeBase)
                frames += 1
            } while demuxer.readVideoPacket() >= 0
            try muxer.finish()
            return VideoClipper.Clip(
                path: piece.path, method: .streamCopy, sourceStart: sourceStart, frameCount: frames, decodedFrom: sourceStart)
        }
    }
}
