import Testing

@testable import TrajectoryKit

/// The splitter keeps the sightings of the frame before and of the current one in two lists that
/// take turns. Once a stream has brought its largest count of blobs, neither list may allocate
/// for it again: the detector allocates nothing per frame in steady state.
@Suite struct MovingRegionSplitterBufferTests {
    @Test("after a frame of many sightings, the list that takes the next frame's has room for as many")
    func sightingListsGrowTogether() {
        var splitter = MovingRegionSplitter()
        let many = (0..<50).map { Blob(center: PixelPoint(x: Double($0) * 10, y: 20), radius: 3, area: 28, contrast: 40) }
        splitter.startFrame()
        splitter.noteBlobs(many)
        let filled = splitter.sightingCapacities.current
        #expect(filled >= many.count)

        splitter.startFrame()
        // The list that held the last frame's sightings is now the earlier one; the other,
        // which has held none yet, must already have room for as many.
        #expect(splitter.sightingCapacities.earlier == filled)
        #expect(splitter.sightingCapacities.current >= many.count)
    }
}
