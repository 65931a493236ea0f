import Foundation
import TrajectoryKit

/// Decodes a video on a thread of its own into a ``DecodedFrameQueue``, so that FFmpeg decodes
/// the next frames while the caller's thread analyses this one.
///
/// Each frame's luma plane is copied into the queue's reused buffers, shrunk on the way as
/// much as the request will analyse it shrunk (``DetectTrajectoriesRequest/analysisReduction(width:height:minimumLongSide:)``):
/// the decoded plane is read once, and the analysing thread gets a small copy. Decoding stops at the end of the stream,
/// at an error (which the queue hands on after the frames before it), or when the analysing
/// side stops the queue.
final class DecodingThread: @unchecked Sendable {
    let queue: DecodedFrameQueue
    /// Read only after the queue says decoding has finished; until then the thread owns it.
    private(set) var reader: VideoReader
    /// The request's ``DetectTrajectoriesRequest/minimumAnalysisLongSide`` when decoding started.
    private let minimumAnalysisLongSide: Int
    /// Checked on every frame, before a buffer is sized for it: a stream may change size part way.
    private let sizeLimit: FrameSizeLimit

    /// Starts decoding `reader` into a new queue of `capacity` frames, each shrunk as a request
    /// with `minimumAnalysisLongSide` would analyse it; a frame over `sizeLimit` ends decoding
    /// with its error.
    init(reader: consuming VideoReader, capacity: Int, sizeLimit: FrameSizeLimit, minimumAnalysisLongSide: Int) {
        self.reader = reader
        self.sizeLimit = sizeLimit
        self.minimumAnalysisLongSide = minimumAnalysisLongSide
        self.queue = DecodedFrameQueue(capacity: capacity)
        // The thread holds this object, reader included, until it finishes: a run that stops
        // early can return while the thread still waits on a silent stream.
        let thread = Thread { [self] in decodeAll() }
        thread.name = "trajectories decoding"
        thread.start()
    }

    private func decodeAll() {
        let queue = self.queue, minimumLongSide = minimumAnalysisLongSide, sizeLimit = self.sizeLimit
        do {
            while let accepted = try reader.nextFrame({ plane, layout, stamp in
                try sizeLimit.check(width: layout.width, height: layout.height)
                let reduction = DetectTrajectoriesRequest.analysisReduction(
                    width: layout.width, height: layout.height, minimumLongSide: minimumLongSide)
                return queue.push(width: layout.width, height: layout.height, shrunkBy: reduction, stamp: stamp) {
                    destination, copyLayout in
                    Self.copy(plane, layout: layout, shrunkBy: reduction, to: destination, layout: copyLayout)
                }
            }), accepted {}
            queue.finish(failure: nil)
        } catch {
            queue.finish(failure: error)
        }
    }

    /// Copies a plane, shrunk `reduction` times, into a buffer laid out as `destinationLayout`.
    private static func copy(
        _ plane: Span<UInt8>, layout: PlaneLayout, shrunkBy reduction: Int, to destination: UnsafeMutablePointer<UInt8>,
        layout destinationLayout: PlaneLayout
    ) {
        if reduction > 1 {
            var shrunk = UnsafeMutableBufferPointer(start: destination, count: destinationLayout.minimumByteCount).mutableSpan
            FrameShrinking.shrink(
                plane, layout: layout, by: reduction, into: &shrunk, destinationBytesPerRow: destinationLayout.bytesPerRow)
            return
        }
        plane.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<layout.height {
                (destination + row * destinationLayout.bytesPerRow)
                    .update(from: base + row * layout.bytesPerRow, count: layout.width)
            }
        }
    }
}
