import TrajectoryKit

/// Copies 8-bit planes between buffers whose rows lie different distances apart.
enum PlaneCopy {
    /// Copies the `layout.width` pixels of each of the `layout.height` rows of `source` (rows
    /// `layout.bytesPerRow` apart) into `destination`, rows `bytesPerRow` apart.
    static func rows(
        of source: UnsafePointer<UInt8>, layout: PlaneLayout, into destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int
    ) {
        for row in 0..<layout.height {
            (destination + row * bytesPerRow).update(from: source + row * layout.bytesPerRow, count: layout.width)
        }
    }
}
