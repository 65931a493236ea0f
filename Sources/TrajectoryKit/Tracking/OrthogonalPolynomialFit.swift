/// Least-squares fit of v = p(u) with p of degree at most 2, through Forsythe's orthogonal
/// polynomials: the numerically sound way to fit a low-degree polynomial. Ordinary by default;
/// weighted when the samples' noise differs (weight ∝ 1 / variance).
///
/// The abscissae are first centred on their mean and scaled by their largest distance from it,
/// so the scaled abscissa s lies in [−1, 1] whatever the units (normalized x, seconds since
/// 1970). Over the samples, the basis
///
///     q₀ = 1,   q₁ = s − α₁,   q₂ = (s − α₂)·q₁ − β₂
///
/// is orthogonal (Σ w·qⱼ·qₖ = 0 for j ≠ k, w the samples' weights), so each coefficient
/// θₖ = Σ w·v·qₖ / Σ w·qₖ² is found on its own, without forming or inverting a normal matrix, and
/// dropping a degree leaves the lower coefficients unchanged. The squared norms ‖qₖ‖² = Σ w·qₖ²
/// say how much the samples' spread can support the k-th power, and give each coefficient's
/// variance (σ²/‖qₖ‖² when a sample of weight w carries noise σ/√w).
struct OrthogonalPolynomialFit: Sendable, Hashable {
    /// The highest power fitted: at most the requested degree, lower when the abscissae do not
    /// have enough distinct values for it.
    private(set) var degree: Int
    /// Number of samples.
    let count: Int
    /// Mean of the abscissae.
    let center: Double
    /// Largest distance of an abscissa from `center` (1 when they are all equal).
    let scale: Double
    /// Recurrence constants of the basis (see the type's comment).
    let alpha1: Double
    let alpha2: Double
    let beta2: Double
    /// θ₀, θ₁, θ₂: the fit is Σ θₖ·qₖ(s). Entries above `degree` are zero.
    private(set) var coefficients: SIMD3<Double>
    /// ‖q₀‖², ‖q₁‖², ‖q₂‖² over the samples.
    let squaredNorms: SIMD3<Double>
    /// Σ w·(v − fit)² over the samples.
    private(set) var residualSumOfSquares: Double

    /// A basis norm below this fraction of the samples' total weight (their count, unweighted)
    /// is treated as zero: the samples have too few distinct abscissae for that power (q₁ and q₂
    /// are bounded by 1 on [−1, 1], so the test is independent of units).
    private static let degenerateNormFraction = 1e-12

    /// Fits `samples`, reading each one's abscissa, ordinate and weight (positive; 1 for
    /// ordinary least squares) through the closures. Returns nil for an empty collection or one
    /// holding a non-finite value.
    ///
    /// - Complexity: O(n), four passes over the samples, no allocation.
    init?<Samples: Collection>(
        _ samples: Samples, maximumDegree: Int,
        abscissa: (Samples.Element) -> Double, ordinate: (Samples.Element) -> Double,
        weight: (Samples.Element) -> Double = { _ in 1 }
    ) {
        precondition((0...2).contains(maximumDegree), "degree must be 0, 1 or 2")
        let n = samples.count
        guard n > 0 else { return nil }

        var totalWeight = 0.0, sum = 0.0, sumOfOrdinates = 0.0
        var lowest = Double.infinity, highest = -Double.infinity
        for sample in samples {
            let u = abscissa(sample)
            let w = weight(sample)
            totalWeight += w
            sum += w * u
            sumOfOrdinates += w * ordinate(sample)
            lowest = min(lowest, u)
            highest = max(highest, u)
        }
        guard sum.isFinite, sumOfOrdinates.isFinite, totalWeight > 0 else { return nil }
        let center = sum / totalWeight
        let halfSpread = max(center - lowest, highest - center)
        let scale = halfSpread > 0 ? halfSpread : 1
        func scaled(_ sample: Samples.Element) -> Double { (abscissa(sample) - center) / scale }

        // Pass 2: q₁ and the constants of q₂.
        var sumOfScaled = 0.0
        for sample in samples { sumOfScaled += weight(sample) * scaled(sample) }
        let alpha1 = sumOfScaled / totalWeight
        let theta0 = sumOfOrdinates / totalWeight
        var norm1 = 0.0, cubeMoment = 0.0, projection1 = 0.0
        for sample in samples {
            let s = scaled(sample)
            let w = weight(sample)
            let q1 = s - alpha1
            norm1 += w * q1 * q1
            cubeMoment += w * s * q1 * q1
            projection1 += w * (ordinate(sample) - theta0) * q1
        }
        let degenerate = Self.degenerateNormFraction * totalWeight
        let hasLinear = maximumDegree >= 1 && norm1 > degenerate
        let theta1 = hasLinear ? projection1 / norm1 : 0
        let alpha2 = hasLinear ? cubeMoment / norm1 : 0
        let beta2 = norm1 / totalWeight

        // Pass 3: q₂, fitted to what θ₀ and θ₁ leave (modified Gram–Schmidt).
        var norm2 = 0.0, projection2 = 0.0
        if hasLinear && maximumDegree == 2 {
            for sample in samples {
                let s = scaled(sample)
                let q1 = s - alpha1
                let q2 = (s - alpha2) * q1 - beta2
                let w = weight(sample)
                norm2 += w * q2 * q2
                projection2 += w * (ordinate(sample) - theta0 - theta1 * q1) * q2
            }
        }
        let hasQuadratic = hasLinear && maximumDegree == 2 && norm2 > degenerate
        let theta2 = hasQuadratic ? projection2 / norm2 : 0

        self.count = n
        self.center = center
        self.scale = scale
        self.alpha1 = alpha1
        self.alpha2 = alpha2
        self.beta2 = beta2
        self.degree = hasQuadratic ? 2 : (hasLinear ? 1 : 0)
        self.coefficients = SIMD3(theta0, theta1, theta2)
        self.squaredNorms = SIMD3(totalWeight, norm1, norm2)

        // Pass 4: residuals of the final fit.
        self.residualSumOfSquares = 0
        var residuals = 0.0
        for sample in samples {
            let r = ordinate(sample) - value(at: abscissa(sample))
            residuals += weight(sample) * r * r
        }
        self.residualSumOfSquares = residuals
    }

    /// The scaled abscissa s of `x`.
    func scaled(_ x: Double) -> Double { (x - center) / scale }

    /// q₀, q₁, q₂ at `x` (q₂ is 0 when the fit is of lower degree).
    func basis(at x: Double) -> SIMD3<Double> {
        let s = scaled(x)
        let q1 = s - alpha1
        return SIMD3(1, degree >= 1 ? q1 : 0, degree >= 2 ? (s - alpha2) * q1 - beta2 : 0)
    }

    /// The fitted polynomial at `x`.
    func value(at x: Double) -> Double { (coefficients * basis(at: x)).sum() }

    /// The fitted polynomial's first derivative at `x`, per unit of x.
    func slope(at x: Double) -> Double {
        let s = scaled(x)
        // d/ds q₁ = 1, d/ds q₂ = q₁ + (s − α₂).
        return (coefficients[1] + coefficients[2] * (2 * s - alpha1 - alpha2)) / scale
    }

    /// The fitted polynomial's second derivative, per unit of x squared (0 below degree 2).
    var curvature: Double { 2 * coefficients[2] / (scale * scale) }

    /// The standard deviation of `curvature` when each ordinate carries independent noise of
    /// standard deviation `noise`. Infinite when the fit has no quadratic term.
    func curvatureStandardError(noise: Double) -> Double {
        guard degree == 2 else { return .infinity }
        return 2 * noise / (scale * scale * squaredNorms[2].squareRoot())
    }

    /// Variance of the fitted value at `x` in units of the ordinates' noise variance: the
    /// leverage Σ qₖ(x)²/‖qₖ‖². The fitted value at `x` has standard deviation
    /// σ·√leverage, and a new sample there differs from it by σ·√(1 + leverage).
    func leverage(at x: Double) -> Double {
        let q = basis(at: x)
        var total = 1 / squaredNorms[0]
        if degree >= 1 { total += q[1] * q[1] / squaredNorms[1] }
        if degree >= 2 { total += q[2] * q[2] / squaredNorms[2] }
        return total
    }

    /// Root mean square of the basis function qₖ over the samples, in scaled units (s ∈ [−1, 1]):
    /// how well the abscissae's spread supports the k-th power (0 when it cannot at all).
    func basisRootMeanSquare(_ k: Int) -> Double { (squaredNorms[k] / squaredNorms[0]).squareRoot() }

    /// The same fit without the powers above `newDegree`. Because the basis is orthogonal the
    /// remaining coefficients are unchanged, and each dropped term adds θₖ²·‖qₖ‖² to the residual.
    func truncated(toDegree newDegree: Int) -> OrthogonalPolynomialFit {
        guard newDegree < degree else { return self }
        var copy = self
        for k in (newDegree + 1)...degree {
            copy.residualSumOfSquares += coefficients[k] * coefficients[k] * squaredNorms[k]
            copy.coefficients[k] = 0
        }
        copy.degree = newDegree
        return copy
    }

    /// The fit as p(x) = c₂·x² + c₁·x + c₀ in the original abscissa, returned as (c₀, c₁, c₂).
    var powerCoefficients: SIMD3<Double> {
        let (theta0, theta1, theta2) = (coefficients[0], coefficients[1], coefficients[2])
        // In the scaled abscissa s: p = A·s² + B·s + C.
        let a = theta2
        let b = theta1 - theta2 * (alpha1 + alpha2)
        let c = theta0 - theta1 * alpha1 + theta2 * (alpha1 * alpha2 - beta2)
        // Substitute s = (x − m)/k.
        let (m, k) = (center, scale)
        return SIMD3(
            c - b * m / k + a * m * m / (k * k),
            b / k - 2 * a * m / (k * k),
            a / (k * k)
        )
    }
}
