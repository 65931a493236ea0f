#if canImport(Glibc)
import Glibc  // atan2
#elseif canImport(Darwin)
import Darwin
#endif

/// Running sums over the pixels of one moving region, from which its blob is measured.
///
/// Positions are pixel centres (pixel (i, j) counts at (i + ½, j + ½)). The plain sums describe
/// the region's shape; the sums weighted by each pixel's change locate and size the object,
/// since a partly covered edge pixel changes by only part of the object's contrast.
struct RegionMoments {
    /// Each pixel weighing 1.
    var shape: MomentSums
    /// Each pixel weighing its change.
    var change: MomentSums
    /// The largest change of any pixel in the region.
    var peak: UInt8
    /// The smallest rectangle of whole pixels holding the region.
    var bounds: PixelRect

    /// Pixels in the region.
    var area: Int { Int(shape.weight) }

    /// The moments of a horizontal run of pixels in row `row`, from its sums along the row.
    init(row: Int, along run: RowRunSums) {
        let y = Double(row) + 0.5
        shape = MomentSums(row: y, weight: Double(run.count), sumX: run.sumX, sumXX: run.sumXX)
        change = MomentSums(row: y, weight: run.weight, sumX: run.weightedX, sumXX: run.weightedXX)
        peak = run.peak
        bounds = PixelRect(minX: run.firstColumn, minY: row, maxX: run.lastColumn + 1, maxY: row + 1)
    }

    /// The moments of the single pixel (`column`, `row`).
    init(column: Int, row: Int, change: UInt8) {
        shape = MomentSums()
        self.change = MomentSums()
        peak = 0
        bounds = PixelRect(minX: column, minY: row, maxX: column + 1, maxY: row + 1)
        add(column: column, row: row, change: change)
    }

    /// Adds the pixel (`column`, `row`), whose change is `change`.
    mutating func add(column: Int, row: Int, change pixelChange: UInt8) {
        let x = Double(column) + 0.5, y = Double(row) + 0.5
        shape.add(x: x, y: y, weight: 1)
        change.add(x: x, y: y, weight: Double(pixelChange))
        peak = max(peak, pixelChange)
        bounds = PixelRect(
            minX: min(bounds.minX, column), minY: min(bounds.minY, row),
            maxX: max(bounds.maxX, column + 1), maxY: max(bounds.maxY, row + 1))
    }

    mutating func add(_ other: RegionMoments) {
        shape.add(other.shape)
        change.add(other.change)
        peak = max(peak, other.peak)
        bounds = PixelRect(
            minX: min(bounds.minX, other.bounds.minX), minY: min(bounds.minY, other.bounds.minY),
            maxX: max(bounds.maxX, other.bounds.maxX), maxY: max(bounds.maxY, other.bounds.maxY))
    }
}

/// First and second moments of weighted positions.
struct MomentSums {
    var weight = 0.0
    var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumYY = 0.0, sumXY = 0.0

    init() {}

    /// The sums of points all in row `y`, from their sums along the row.
    init(row y: Double, weight: Double, sumX: Double, sumXX: Double) {
        self.weight = weight
        self.sumX = sumX
        sumY = weight * y
        self.sumXX = sumXX
        sumYY = weight * y * y
        sumXY = sumX * y
    }

    @inline(__always)
    mutating func add(x: Double, y: Double, weight w: Double) {
        weight += w
        sumX += w * x
        sumY += w * y
        sumXX += w * x * x
        sumYY += w * y * y
        sumXY += w * x * y
    }

    mutating func add(_ other: MomentSums) {
        weight += other.weight
        sumX += other.sumX
        sumY += other.sumY
        sumXX += other.sumXX
        sumYY += other.sumYY
        sumXY += other.sumXY
    }

    /// The weighted mean position.
    var mean: PixelPoint { PixelPoint(x: sumX / weight, y: sumY / weight) }

    /// The weighted covariance of the positions about their mean.
    var covariance: Covariance2D {
        let centre = mean
        return Covariance2D(
            xx: sumXX / weight - centre.x * centre.x, yy: sumYY / weight - centre.y * centre.y,
            xy: sumXY / weight - centre.x * centre.y)
    }
}

/// Sums along one horizontal run of moving pixels, gathered while the row is scanned.
struct RowRunSums {
    var firstColumn = Int.max
    var lastColumn = Int.min
    var count = 0
    // Sums over the run's pixels of u = 2x, where x = column + 0.5 is the pixel's centre, kept
    // in integers: cheaper per pixel than doubles, and exact, as the doubles' sums are too (every
    // term is a multiple of 1/4 far below 2^51), so the moments come out the same to the bit.
    private var sumU = 0, sumUU = 0
    private var weightSum = 0, weightedU = 0, weightedUU = 0
    var peak: UInt8 = 0

    var sumX: Double { Double(sumU) / 2 }
    var sumXX: Double { Double(sumUU) / 4 }
    var weight: Double { Double(weightSum) }
    var weightedX: Double { Double(weightedU) / 2 }
    var weightedXX: Double { Double(weightedUU) / 4 }

    @inline(__always)
    mutating func add(column: Int, change: UInt8) {
        let u = 2 &* column &+ 1
        let w = Int(change)
        firstColumn = min(firstColumn, column)
        lastColumn = max(lastColumn, column)
        count &+= 1
        sumU &+= u
        sumUU &+= u &* u
        weightSum &+= w
        weightedU &+= w &* u
        weightedUU &+= w &* u &* u
        peak = max(peak, change)
    }
}

/// A symmetric 2 × 2 covariance matrix and its principal axes.
struct Covariance2D {
    var xx: Double
    var yy: Double
    var xy: Double

    /// The larger and smaller eigenvalues: variances along the major and minor axes.
    var principalVariances: (major: Double, minor: Double) {
        let mean = (xx + yy) / 2
        let spread = ((xx - yy) * (xx - yy) / 4 + xy * xy).squareRoot()
        return (mean + spread, mean - spread)
    }

    /// Direction of the major axis in radians, in (−π/2, π/2].
    var majorAxisAngle: Double {
        let angle = atan2(2 * xy, xx - yy) / 2
        return angle <= -Double.pi / 2 ? angle + Double.pi : angle
    }

    var determinant: Double { xx * yy - xy * xy }
}
