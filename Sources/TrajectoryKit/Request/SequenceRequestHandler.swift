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

    /// Performs each request on a frame held in memory.
    public func perform(
        _ requests: [DetectTrajectoriesRequest], on image: LumaImage, frame: FrameStamp
    ) throws(ConfigurationError) {
        try perform(requests, luma: image.pixels.span, layout: image.layout, frame: frame)
    }
}
