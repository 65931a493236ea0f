/// The equation Vision reports for a trajectory: an ordinary, unweighted least-squares fit of
/// y = a·x² + b·x + c over normalized points (bottom-left origin), solved in Double.
///
/// The fit is made in a centred and scaled x through orthogonal polynomials, then converted
/// back, so it stays accurate when the points span a small part of the frame.
///
/// ## Near-vertical flights
/// A ball tossed straight up barely changes x, and y as a function of x is then not a function
/// at all: an unconstrained fit returns coefficients of any size, driven by the centroid noise
/// in x. So the degree is lowered to what the points' x can support:
///
/// - the x² term is fitted only when the points' half-spread in x (largest distance from their
///   mean x) is at least ``minimumHalfSpreadForQuadratic`` and the orthogonal quadratic and
///   linear basis functions each have a root mean square of at least ``minimumBasisRootMeanSquare``
///   over the points (in x scaled to [−1, 1]; it is ≈ 0.2 for Apple's example, 0 when x takes
///   only two values);
/// - otherwise the x term is fitted when the half-spread is at least
///   ``minimumHalfSpreadForLinear`` and the linear basis passes the same test;
/// - otherwise the fit is the constant y = mean y (a = b = 0).
///
/// For points inside the unit square this bounds the result by ``maximumMagnitudeOfA`` and
/// ``maximumMagnitudeOfB`` (each scaled-basis coefficient is at most 1 / (2·rms) because the
/// spread of y is at most ½; dividing by the half-spread's powers gives the bounds).
public struct ParabolaFit: Sendable, Hashable {
    /// x half-spread (normalized) below which no x² term is fitted: 1 % of the frame width,
    /// about 40 times the centroid noise of a detector at 720p.
    public static let minimumHalfSpreadForQuadratic = 0.01
    /// x half-spread (normalized) below which no x term is fitted: 0.2 % of the frame width,
    /// a few pixels at common sizes.
    public static let minimumHalfSpreadForLinear = 0.002
    /// Smallest root mean square of a scaled orthogonal basis function for its term to be fitted.
    public static let minimumBasisRootMeanSquare = 0.1

    /// Largest |a| the fit can return for points inside the unit square.
    public static var maximumMagnitudeOfA: Double {
        let spread = minimumHalfSpreadForQuadratic
        return 1 / (2 * minimumBasisRootMeanSquare * spread * spread)
    }

    /// Largest |b| the fit can return for points inside the unit square.
    public static var maximumMagnitudeOfB: Double {
        let quadratic = minimumHalfSpreadForQuadratic
        let whenQuadratic = (1 + quadratic) / (minimumBasisRootMeanSquare * quadratic * quadratic)
        let whenLinear = 1 / (2 * minimumBasisRootMeanSquare * minimumHalfSpreadForLinear)
        return max(whenQuadratic, whenLinear)
    }

    /// The fitted equation.
    public let coefficients: EquationCoefficients
    /// The highest power of x the points supported: 2, 1 (then a = 0) or 0 (a = b = 0).
    public let degree: Int

    /// Fits y = a·x² + b·x + c to `points`. Returns nil when there are no points or one of
    /// them is not finite.
    ///
    /// - Complexity: O(n), no allocation.
    public init?(points: some Collection<NormalizedPoint>) {
        guard let full = OrthogonalPolynomialFit(points, maximumDegree: 2, abscissa: \.x, ordinate: \.y)
        else { return nil }
        let halfSpread = full.degree == 0 ? 0 : full.scale
        let linearSupported = full.degree >= 1
            && halfSpread >= Self.minimumHalfSpreadForLinear
            && full.basisRootMeanSquare(1) >= Self.minimumBasisRootMeanSquare
        let quadraticSupported = linearSupported && full.degree == 2
            && halfSpread >= Self.minimumHalfSpreadForQuadratic
            && full.basisRootMeanSquare(2) >= Self.minimumBasisRootMeanSquare
        let degree = quadraticSupported ? 2 : (linearSupported ? 1 : 0)
        let power = full.truncated(toDegree: degree).powerCoefficients
        self.coefficients = EquationCoefficients(a: power[2], b: power[1], c: power[0])
        self.degree = degree
    }
}
