import CFFmpeg

/// Up to four destination planes for swscale, as a tuple so that nothing is allocated per frame.
typealias SwscalePlanes = (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
                           UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?)
/// Up to four source planes for swscale.
typealias SwscaleSources = (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?)
/// Bytes per row of each of four planes.
typealias SwscaleStrides = (Int32, Int32, Int32, Int32)

/// Runs `converter` over the whole of `frame`, writing to `planes`, rows `strides` bytes apart.
func scale(_ frame: UnsafePointer<AVFrame>, with converter: OpaquePointer?, into planes: SwscalePlanes,
           strides: SwscaleStrides) {
    let data = frame.pointee.data, linesize = frame.pointee.linesize
    scale((UnsafePointer(data.0), UnsafePointer(data.1), UnsafePointer(data.2), UnsafePointer(data.3)),
          strides: (linesize.0, linesize.1, linesize.2, linesize.3), height: frame.pointee.height,
          with: converter, into: planes, strides: strides)
}

/// Runs `converter` over `height` rows of the `sources` planes, writing to `planes`.
func scale(_ sources: SwscaleSources, strides sourceStrides: SwscaleStrides, height: Int32,
           with converter: OpaquePointer?, into planes: SwscalePlanes, strides: SwscaleStrides) {
    var sourcePlanes = sources
    var sourceStrides = sourceStrides
    var destinationPlanes = planes
    var destinationStrides = strides
    withUnsafeBytes(of: &sourcePlanes) { sourcePlanes in
        withUnsafeBytes(of: &sourceStrides) { sourceStrides in
            withUnsafeBytes(of: &destinationPlanes) { planes in
                withUnsafeBytes(of: &destinationStrides) { strides in
                    _ = sws_scale(
                        converter,
                        sourcePlanes.assumingMemoryBound(to: UnsafePointer<UInt8>?.self).baseAddress,
                        sourceStrides.assumingMemoryBound(to: Int32.self).baseAddress,
                        0, height,
                        planes.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self).baseAddress,
                        strides.assumingMemoryBound(to: Int32.self).baseAddress)
                }
            }
        }
    }
}
