import TrajectoryKit

/// Draws trajectories from a ``TrajectoryHistory`` onto pictures: each frame as it looked
/// live (``drawLive(_:at:on:)``), or every trajectory as it ended (``drawFinal(_:on:)``).
///
/// Keeps a scratch buffer of curve points between calls, so drawing a frame allocates nothing
/// once the buffer has grown.
public struct OverlayPainter: Sendable {
    public let style: OverlayStyle
    /// The request's region of interest, drawn as a frame.
    public let regionOfInterest: NormalizedRect
    private var scratch: [PixelPoint] = []

    public init(style: OverlayStyle, regionOfInterest: NormalizedRect) {
        self.style = style
        self.regionOfInterest = regionOfInterest
    }

    /// Draws, on the frame at `stamp`, every trajectory live then: one whose first point is on
    /// this frame or before and whose last point is at most `holdSeconds` older. Each shows the
    /// points seen by this frame and the fit in effect on it (see ``TrajectoryHistory/Track``).
    public mutating func drawLive(_ history: TrajectoryHistory, at stamp: FrameStamp, on picture: inout YUVPicture) {
        drawRegion(on: &picture)
        for track in history.tracks {
            guard let first = track.points.first, let last = track.points.last,
                  first.frame <= stamp.index, stamp.time <= last.time + style.holdSeconds
            else { continue }
            draw(track, upTo: stamp.index, on: &picture)
        }
    }

    /// Draws every trajectory of `history` whole, for a still that sums up a clip: all its
    /// points, and the fit along all of them. Each stretch between two points shows the fit
    /// that was in effect when the later point came, so the green runs the flight's whole
    /// length (a single fit covers only the last `trajectoryLength` points). It is drawn
    /// thinner and over the dots: a flight's points crowd together near its apex, and dots on
    /// top would hide it there.
    public mutating func drawFinal(_ history: TrajectoryHistory, on picture: inout YUVPicture) {
        drawRegion(on: &picture)
        let size = (width: picture.width, height: picture.height)
        let red = picture.encoding.yuv(style.detectedColour)
        let green = picture.encoding.yuv(style.fittedColour)
        for track in history.tracks {
            scratch.removeAll(keepingCapacity: true)
            for point in track.points { scratch.append(point.location.pixels(width: size.width, height: size.height)) }
            picture.strokePolyline(scratch, width: style.pathWidth, red)
            for pixel in scratch { picture.fillDisc(centre: pixel, radius: style.dotRadius, red) }

            for (earlier, later) in zip(track.points, track.points.dropFirst()) {
                ParabolaPath.sample(
                    track.fit(at: later.frame).coefficients, from: earlier.location.x, to: later.location.x,
                    width: size.width, height: size.height, into: &scratch)
                picture.strokePolyline(scratch, width: max(1, style.curveWidth / 2), green)
            }
            let last = track.points.last!.location.pixels(width: size.width, height: size.height)
            drawTag(track.tag, near: last, on: &picture)
        }
    }

    private func drawRegion(on picture: inout YUVPicture) {
        let bounds = regionOfInterest.pixelBounds(width: picture.width, height: picture.height)
        picture.strokeRectangle(bounds, thickness: style.regionThickness, picture.encoding.yuv(style.regionColour))
    }

    /// One trajectory as it was on frame `frame`.
    private mutating func draw(_ track: TrajectoryHistory.Track, upTo frame: Int, on picture: inout YUVPicture) {
        let count = track.pointCount(at: frame)
        guard count > 0 else { return }
        let shown = track.points.prefix(count)
        let size = (width: picture.width, height: picture.height)
        let red = picture.encoding.yuv(style.detectedColour)

        scratch.removeAll(keepingCapacity: true)
        for point in shown { scratch.append(point.location.pixels(width: size.width, height: size.height)) }
        picture.strokePolyline(scratch, width: style.pathWidth, red)

        let fit = track.fit(at: frame)
        let fitted = shown.drop { $0.frame < fit.firstFittedFrame }
        if fitted.count >= 2 {
            ParabolaPath.sample(
                fit.coefficients, from: fitted.lazy.map(\.location.x).min()!, to: fitted.lazy.map(\.location.x).max()!,
                width: size.width, height: size.height, into: &scratch)
            picture.strokePolyline(scratch, width: style.curveWidth, picture.encoding.yuv(style.fittedColour))
        }

        for point in shown {
            picture.fillDisc(centre: point.location.pixels(width: size.width, height: size.height), radius: style.dotRadius, red)
        }
        drawTag(track.tag, near: shown.last!.location.pixels(width: size.width, height: size.height), on: &picture)
    }

    /// The tag above and right of `point`, moved inside the picture when it would leave it.
    private func drawTag(_ tag: String, near point: PixelPoint, on picture: inout YUVPicture) {
        let scale = style.tagScale
        let text = BitmapFont.size(of: tag, scale: scale)
        let padding = scale
        let gap = Int(style.dotRadius.rounded(.up)) + 2 * scale
        var left = Int(point.x) + gap, top = Int(point.y) - gap - text.height - 2 * padding
        left = min(max(0, left), picture.width - text.width - 2 * padding)
        top = min(max(0, top), picture.height - text.height - 2 * padding)
        let box = PixelRect(minX: left, minY: top, maxX: left + text.width + 2 * padding, maxY: top + text.height + 2 * padding)
        picture.fill(box, picture.encoding.yuv(style.tagBackground))
        picture.drawText(tag, x: left + padding, y: top + padding, scale: scale, picture.encoding.yuv(style.tagColour))
    }
}

/// Samples a parabola y = a·x² + b·x + c given in normalized coordinates as pixel points.
public enum ParabolaPath {
    /// Most samples per curve: bounds the work for a wild fit far outside the picture.
    static let maximumSamples = 4096

    /// Fills `points` with the curve between normalized `x0` and `x1` on a `width` × `height`
    /// picture, about one sample per two pixels along the curve (at least 8), so that a steep
    /// curve is as smooth as a flat one.
    public static func sample(
        _ coefficients: EquationCoefficients, from x0: Double, to x1: Double, width: Int, height: Int,
        into points: inout [PixelPoint]
    ) {
        points.removeAll(keepingCapacity: true)
        guard x0.isFinite, x1.isFinite else { return }
        func point(_ step: Int, of count: Int) -> PixelPoint {
            let x = x0 + (x1 - x0) * Double(step) / Double(count)
            return NormalizedPoint(x: x, y: coefficients.evaluate(at: x)).pixels(width: width, height: height)
        }
        // The curve's length in pixels, from a coarse polyline.
        let coarse = 16
        var length = 0.0
        var previous = point(0, of: coarse)
        for step in 1...coarse {
            let next = point(step, of: coarse)
            length += ((next.x - previous.x) * (next.x - previous.x) + (next.y - previous.y) * (next.y - previous.y)).squareRoot()
            previous = next
        }
        let count = length.isFinite ? min(maximumSamples, max(8, Int((length / 2).rounded(.up)))) : 8
        for step in 0...count { points.append(point(step, of: count)) }
    }
}
