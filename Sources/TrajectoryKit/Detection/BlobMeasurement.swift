extension Blob {
    /// Variance (px² per axis) that the measured change image has on top of the object's
    /// own: the smoothing's, and that of each pixel's square footprint (1/12), since an edge
    /// pixel changes in proportion to how much of it the object covers.
    static let measurementVariance = BinomialSmoother.addedVariance + 1.0 / 12
    /// Smallest object variance the radius and elongation are computed from (a radius of ½ px),
    /// so a region barely larger than the smoothing still gets a finite, positive size.
    static let minimumObjectVariance = 1.0 / 16

    /// Measures a moving region.
    ///
    /// The radius comes from the change-weighted spread across the region's minor axis: a
    /// uniform disc of radius r has variance r²/4 along every axis, and a disc smeared along
    /// a line by motion blur keeps that variance across the streak, so r = 2·√λ_min holds for
    /// both once the smoothing's variance is taken out.
    ///
    /// - Parameter remeasured: the region measured again with its soft edge
    ///   (``EdgeInclusiveMeasurement``), when it was; else the thresholded region's moments are used.
    init(measuring region: RegionMoments, remeasured: EdgeInclusiveMeasurement?) {
        let covariance = remeasured?.spread ?? region.change.covariance
        let spread = covariance.principalVariances
        let minor = max(spread.minor - Self.measurementVariance, Self.minimumObjectVariance)
        let major = max(spread.major - Self.measurementVariance, minor)
        self.init(
            center: remeasured?.center ?? region.change.mean,
            radius: 2 * minor.squareRoot(),
            area: region.area,
            contrast: region.change.weight / Double(region.area),
            elongation: (major / minor).squareRoot(),
            orientation: covariance.majorAxisAngle,
            solidity: Self.solidity(of: region))
    }

    /// The region's area over the area of the ellipse with the same second moments
    /// (π·4·√det of the covariance of the pixels' squares), at most 1.
    private static func solidity(of region: RegionMoments) -> Double {
        var shape = region.shape.covariance
        // Each pixel is a unit square, not a point: its own variance is 1/12 per axis.
        shape.xx += 1.0 / 12
        shape.yy += 1.0 / 12
        let ellipseArea = 4 * Double.pi * shape.determinant.squareRoot()
        return min(1, Double(region.area) / ellipseArea)
    }
}
