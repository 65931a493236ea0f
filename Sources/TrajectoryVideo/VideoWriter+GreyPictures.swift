import CFFmpeg
import TrajectoryKit

extension VideoWriter.Format {
    /// Writes the grey plane `grey` (laid out as `layout`) into `frame`, whose buffers have
    /// this format's pixel format and the same size, with neutral colour.
    func writeGrey(_ grey: UnsafePointer<UInt8>, layout: PlaneLayout, into frame: UnsafeMutablePointer<AVFrame>) {
        let planes = frame.pointee.data
        let strides = frame.pointee.linesize
        switch self {
        case .h264:
            PlaneCopy.rows(of: grey, layout: layout, into: planes.0!, bytesPerRow: Int(strides.0))
            let chromaSize = (width: layout.width / 2, height: layout.height / 2)
            for (plane, stride) in [(planes.1!, strides.1), (planes.2!, strides.2)] {
                for row in 0..<chromaSize.height {
                    (plane + row * Int(stride)).update(repeating: 128, count: chromaSize.width)
                }
            }
        case .h264TenBit:
            let luma = UnsafeMutableRawPointer(planes.0!)
            for row in 0..<layout.height {
                let source = grey + row * layout.bytesPerRow
                let destination = (luma + row * Int(strides.0)).assumingMemoryBound(to: UInt16.self)
                for column in 0..<layout.width {
                    // The usual 8- to 10-bit scaling (× 4), which the reader's rounding undoes.
                    destination[column] = (UInt16(source[column]) << 2).littleEndian
                }
            }
            for (plane, stride) in [(planes.1!, strides.1), (planes.2!, strides.2)] {
                for row in 0..<layout.height / 2 {
                    let chroma = UnsafeMutableRawPointer(plane + row * Int(stride)).assumingMemoryBound(to: UInt16.self)
                    chroma.update(repeating: UInt16(512).littleEndian, count: layout.width / 2)
                }
            }
        case .h264RGB:
            for row in 0..<layout.height {
                let source = grey + row * layout.bytesPerRow
                let destination = planes.0! + row * Int(strides.0)
                for column in 0..<layout.width {
                    let level = source[column]
                    destination[3 * column] = level
                    destination[3 * column + 1] = level
                    destination[3 * column + 2] = level
                }
            }
        case .gif, .pngPaletted:
            // Index i is grey level i: the picture is its own index plane.
            PlaneCopy.rows(of: grey, layout: layout, into: planes.0!, bytesPerRow: Int(strides.0))
            let palette = UnsafeMutableRawPointer(planes.1!).assumingMemoryBound(to: UInt32.self)
            for level in 0..<256 {
                let grey = UInt32(level)
                palette[level] = 0xFF00_0000 | grey << 16 | grey << 8 | grey  // opaque ARGB
            }
        }
    }
}
