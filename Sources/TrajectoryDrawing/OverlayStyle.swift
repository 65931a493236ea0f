/// How trajectories are drawn over video: colours, line widths and how long a trajectory
/// stays on screen after its last point.
///
/// Detected points are a red path with a dot on each point; the fit is a green curve drawn
/// over the path and under the dots, so where the fit follows the detections it shows green
/// between red beads, and where they part both are seen. The region of interest is a blue frame and each
/// trajectory carries its uuid's first eight hex digits, white on black.
public struct OverlayStyle: Sendable, Hashable {
    public var detectedColour = RGBColour(red: 255, green: 0, blue: 0)
    public var fittedColour = RGBColour(red: 0, green: 255, blue: 0)
    public var regionColour = RGBColour(red: 0, green: 64, blue: 255)
    public var tagColour = RGBColour(red: 255, green: 255, blue: 255)
    public var tagBackground = RGBColour(red: 0, green: 0, blue: 0)
    /// Width of the red path through the detected points, in pixels.
    public var pathWidth: Double
    /// Radius of the dot on each detected point.
    public var dotRadius: Double
    /// Width of the green fitted curve.
    public var curveWidth: Double
    /// Thickness of the region-of-interest frame.
    public var regionThickness: Int
    /// Pixels per font pixel of the uuid tag.
    public var tagScale: Int
    /// Seconds a trajectory stays drawn after its last point.
    public var holdSeconds: Double

    /// Sizes that read well on a `width` × `height` picture: one unit per 360 pixels of its
    /// shorter side (2 at 720p, 3 at 1080p), so lines survive 4:2:0 chroma and compression.
    public init(width: Int, height: Int, holdSeconds: Double = 0.5) {
        let unit = max(1, Int((Double(min(width, height)) / 360).rounded()))
        pathWidth = 2 * Double(unit)
        dotRadius = 1.75 * Double(unit)
        curveWidth = 2 * Double(unit)
        regionThickness = unit
        tagScale = unit
        self.holdSeconds = holdSeconds
    }
}
