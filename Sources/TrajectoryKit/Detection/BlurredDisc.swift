#if canImport(Glibc)
import Glibc  // cos, sin
#elseif canImport(Darwin)
import Darwin
#endif

/// A ball as its part of a difference image shows it: a disc of `radius` whose centre
/// travelled `travel` pixels along `axis` while the shutter was open, found from the part's
/// second moments.
///
/// A disc of radius r has variance r²/4 along every axis; travel L during the exposure adds
/// L²/12 along the motion (a uniform smear), so both follow from the principal variances once
/// the smoothing's and the pixels' own variance is taken out. A sharp ball has no travel.
struct BlurredDisc {
    var center: PixelPoint
    /// Unit vector along the motion (the major axis).
    let axis: (x: Double, y: Double)
    let radius: Double
    let travel: Double

    init(_ moments: RegionMoments) {
        let covariance = moments.change.covariance
        let spread = covariance.principalVariances
        let minor = max(spread.minor - Blob.measurementVariance, Blob.minimumObjectVariance)
        let major = max(spread.major - Blob.measurementVariance, minor)
        center = moments.change.mean
        let angle = covariance.majorAxisAngle
        axis = (cos(angle), sin(angle))
        radius = 2 * minor.squareRoot()
        travel = (12 * (major - minor)).squareRoot()
    }

    /// The fraction of the exposure the ball covered pixel (`column`, `row`), where the path's
    /// shape tells it well; nil elsewhere.
    ///
    /// A ball whose centre travels L covers a pixel at distance t from the path's axis while
    /// the centre is within w = √(r² − t²) of it along the axis: the overlap of that stretch
    /// with the path, over L. Along the axis this is flat in the middle, falls linearly over
    /// the ends and is zero beyond; the smoothing keeps flat and linear stretches as they are
    /// and only rounds the corners between them, so pixels within one pixel of a corner, or
    /// of the path's side, are left out.
    func coverage(column: Int, row: Int) -> Double? {
        let dx = Double(column) + 0.5 - center.x, dy = Double(row) + 0.5 - center.y
        let along = abs(dx * axis.x + dy * axis.y), across = abs(dy * axis.x - dx * axis.y)
        guard across <= radius - 1 else { return nil }
        let halfStretch = (radius * radius - across * across).squareRoot()
        let corners = (abs(halfStretch - travel / 2), halfStretch + travel / 2)
        guard abs(along - corners.0) >= 1, along <= corners.1 - 1 else { return nil }
        guard travel > 0 else { return 1 }
        let overlap = min(along + halfStretch, travel / 2) - max(along - halfStretch, -travel / 2)
        return max(0, overlap) / travel
    }

    /// The coverage of the middle of the path on its axis: 1 for a ball that travels less
    /// than its diameter, 2r / L for a longer streak.
    var axisCoverage: Double { travel > 2 * radius ? 2 * radius / travel : 1 }
}
