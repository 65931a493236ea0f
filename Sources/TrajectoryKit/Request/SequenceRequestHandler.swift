/// Performs requests on the successive frames of one video stream, as Vision's
/// `VNSequenceRequestHandler` does.
public struct SequenceRequestHandler {
    public init() {}

    /// Performs each request on a frame lent as an 8-bit luma plane (rows may be padded).
    /// The plane is only read during the call. This is how decoded video reaches the requests
    /// without a copy.
    public func perform(
        _ requests: [DetectTrajectoriesRequest], luma: Span<UInt8>, layout: PlaneLayout, frame: FrameStamp
    ) throws(ConfigurationError) {
        precondition(luma.count >= layout.minimumByteCount, "the plane must hold \(layout.minimumByteCount) bytes")
        for request in requests {
            try request.perform(luma: luma, layout: layout, frame: frame)
        }
    }

    /// Performs each request on a frame lent already shrunk `reduction` times in each direction
    /// by ``FrameShrinking`` (so a decoder reads its own plane once, to shrink it as it copies
    /// it out). `layout` is the shrunk plane's; `frameWidth` × `frameHeight` the frame's, which
    /// the results are in. A request that would analyse the frame shrunk more shrinks it
    /// further; one that would analyse it shrunk less analyses it as it is.
    public func perform(
        _ requests: [DetectTrajectoriesRequest], luma: Span<UInt8>, layout: PlaneLayout, shrunkBy reduction: Int,
        frameWidth: Int, frameHeight: Int, frame: FrameStamp
    ) throws(ConfigurationError) {
        precondition(luma.count >= layout.minimumByteCount, "the plane must hold \(layout.minimumByteCount) bytes")
        precondition(
            FrameShrinking.shrunkSize(width: frameWidth, height: frameHeight, by: reduction) == (layout.width, layout.height),
            "a \(frameWidth)×\(frameHeight) frame shrunk \(reduction) times is not \(layout.width)×\(layout.height)")
        for request in requests {
            try request.perform(
                luma: luma, layout: layout, shrunkBy: reduction, frameWidth: frameWidth, frameHeight: frameHeight,
                frame: frame)
        }
    }

    /// Performs each request on a frame held in memory.
    public func perform(
        _ requests: [DetectTrajectoriesRequest], on image: LumaImage, frame: FrameStamp
    ) throws(ConfigurationError) {
        try perform(requests, luma: image.pixels.span, layout: image.layout, frame: frame)
    }
}
