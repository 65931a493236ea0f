import Testing
import TrajectoryKit

@Suite struct GeometryTests {
    @Test("pixel and normalized coordinates convert both ways, flipping y")
    func roundTrip() {
        let pixel = PixelPoint(x: 320, y: 180)
        let normalized = pixel.normalized(width: 1280, height: 720)
        #expect(normalized == NormalizedPoint(x: 0.25, y: 0.75))
        #expect(normalized.pixels(width: 1280, height: 720) == pixel)
    }

    @Test("a region of interest maps to the pixel rows it covers, top-left origin")
    func roiPixelBounds() {
        let bottomHalf = NormalizedRect(x: 0, y: 0, width: 1, height: 0.5)
        #expect(bottomHalf.pixelBounds(width: 100, height: 50) == PixelRect(minX: 0, minY: 25, maxX: 100, maxY: 50))
        #expect(NormalizedRect.full.pixelBounds(width: 7, height: 3) == PixelRect(minX: 0, minY: 0, maxX: 7, maxY: 3))
        #expect(!NormalizedRect(x: 0.5, y: 0, width: 0.6, height: 1).isValidRegionOfInterest)
    }
}
