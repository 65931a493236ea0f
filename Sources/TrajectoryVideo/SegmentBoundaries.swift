import CFFmpeg

/// Cuts an H.264 or HEVC stream, packet by packet, into segments that decode independently of
/// one another, so that two decoders can each take every other segment (``DecodingLanes``) and
/// together give exactly the frames one decoder gives, in the same order.
///
/// A segment starts at an IDR picture: nothing after one, in decoding order, refers to anything
/// before it, and every picture before it is shown before it. (A keyframe that is not an IDR,
/// an open GOP's, may be followed by pictures that refer back across it: no cut is made there.)
/// A decoder starting at a cut needs the stream's parameter sets, which an MP4 or Matroska file
/// states once in its header (the `avcC` or `hvcC` box, FFmpeg's extradata); a parameter set
/// sent in the stream itself, outside a packet that starts a segment, reaches only one of the
/// decoders, so no cut is made after one. Segments are at least ``minimumPackets`` long, so
/// that an all-keyframe stream is not cut at every frame.
///
/// Every lane runs its own copy over the same packets and so agrees with the others on where
/// each segment starts.
struct SegmentBoundaries {
    /// How the codec marks a picture's kind in its NAL unit headers.
    enum Syntax {
        case h264, hevc

        /// The syntax of `codecID`'s NAL unit headers, or nil for a codec without them.
        init?(codecID: AVCodecID) {
            switch codecID {
            case AV_CODEC_ID_H264: self = .h264
            case AV_CODEC_ID_HEVC: self = .hevc
            default: return nil
            }
        }
    }

    let syntax: Syntax
    /// Bytes of the big-endian length before each NAL unit in a packet (1 to 4).
    let lengthSize: Int
    /// The fewest packets a segment holds before another may start.
    let minimumPackets: Int
    /// The segment the last packet read belongs to.
    private(set) var segment = 0
    /// Packets read in the current segment; none before the stream's first.
    private var packetsInSegment = 0
    /// Cleared for good by a parameter set in the stream or a packet that cannot be parsed.
    private var cutsAllowed = true

    /// Packets per segment at the least: at 30 frames/s, a second.
    static let defaultMinimumPackets = 30

    /// Boundaries for a stream of `syntax` whose extradata is `extradata`, or nil when that is
    /// no length-prefixed header (an MPEG-TS stream's parameter sets come inside it, start-code
    /// delimited).
    init?(syntax: Syntax, extradata: UnsafeRawBufferPointer, minimumPackets: Int = defaultMinimumPackets) {
        // Version 1 of the configuration record; the length size is its low two bits plus one.
        switch syntax {
        case .h264:
            guard extradata.count >= 7, extradata[0] == 1 else { return nil }
            lengthSize = Int(extradata[4] & 3) + 1
        case .hevc:
            guard extradata.count >= 23, extradata[0] == 1 else { return nil }
            lengthSize = Int(extradata[21] & 3) + 1
        }
        guard lengthSize != 3 else { return nil }  // not a length either record allows
        self.syntax = syntax
        self.minimumPackets = max(1, minimumPackets)
    }

    /// Reads the next packet of the stream, and returns the segment it belongs to.
    mutating func segment(ofPacket data: UnsafeRawBufferPointer) -> Int {
        if cutsAllowed {
            if let units = units(in: data) {
                if units.hasIDR && packetsInSegment >= minimumPackets {
                    segment += 1
                    packetsInSegment = 0
                } else if units.hasParameterSets && packetsInSegment > 0 {
                    cutsAllowed = false  // only the decoder of this segment sees them
                }
            } else {
                cutsAllowed = false
            }
        }
        packetsInSegment += 1
        return segment
    }

    /// Whether the packet's NAL units include an IDR picture's and a parameter set; nil when
    /// the packet does not parse as length-prefixed NAL units.
    private func units(in data: UnsafeRawBufferPointer) -> (hasIDR: Bool, hasParameterSets: Bool)? {
        var offset = 0
        var hasIDR = false, hasParameterSets = false
        while offset < data.count {
            guard offset + lengthSize <= data.count else { return nil }
            var length = 0
            for byte in data[offset..<(offset + lengthSize)] { length = length << 8 | Int(byte) }
            offset += lengthSize
            guard length > 0, length <= data.count - offset else { return nil }
            let header = data[offset]
            switch syntax {
            case .h264:
                let type = header & 0x1F
                if type == 5 { hasIDR = true }
                if type == 7 || type == 8 { hasParameterSets = true }
            case .hevc:
                let type = (header >> 1) & 0x3F
                if type == 19 || type == 20 { hasIDR = true }
                if (32...34).contains(type) { hasParameterSets = true }
            }
            offset += length
        }
        return (hasIDR, hasParameterSets)
    }
}
