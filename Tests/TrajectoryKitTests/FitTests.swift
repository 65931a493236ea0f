import Foundation
import Testing
import TrajectoryKit

@Suite struct ParabolaFitTests {
    /// DESIGN.md: ten detected points measured on iOS and the coefficients Vision reported.
    static let appleDetectedPoints = [
        (0.027778, 0.801562), (0.073618, 0.749221), (0.101400, 0.752338), (0.113900, 0.766406),
        (0.119444, 0.767187), (0.122233, 0.774219), (0.130556, 0.789063), (0.136111, 0.789063),
        (0.144444, 0.801562), (0.159733, 0.837897),
    ].map { NormalizedPoint(x: $0.0, y: $0.1) }

    @Test("Apple's ten-point example gives Vision's a, b, c to 1e-4 relative")
    func appleExample() throws {
        let fit = try #require(ParabolaFit(points: Self.appleDetectedPoints))
        #expect(fit.degree == 2)
        #expect(abs(fit.coefficients.a / 15.57386 - 1) < 1e-4)
        #expect(abs(fit.coefficients.b / -2.638611 - 1) < 1e-4)
        #expect(abs(fit.coefficients.c / 0.8618334 - 1) < 1e-4)
    }

    @Test("an exact parabola far from x = 0 over a small span is recovered to 1e-9", arguments: [0.05, 0.5, 0.95])
    func exactParabola(centerX: Double) throws {
        let truth = EquationCoefficients(a: -40, b: 80 * centerX, c: 0.3 - 40 * centerX * centerX)
        let points = (0..<10).map { index in
            let x = centerX - 0.03 + 0.006 * Double(index)
            return NormalizedPoint(x: x, y: truth.evaluate(at: x))
        }
        let fit = try #require(ParabolaFit(points: points))
        for x in stride(from: centerX - 0.03, through: centerX + 0.03, by: 0.01) {
            #expect(abs(fit.coefficients.evaluate(at: x) - truth.evaluate(at: x)) < 1e-9)
        }
        #expect(abs(fit.coefficients.a / truth.a - 1) < 1e-6)
    }

    @Test("a near-vertical toss (x constant ± 0.5 px) gives finite, bounded coefficients", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func nearVertical(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let points = (0..<10).map { index in
            let t = Double(index) / 30
            let pixel = PixelPoint(
                x: 640 + Double.random(in: -0.5...0.5, using: &random),
                y: 600 - 900 * t + 0.5 * 3000 * t * t)
            return pixel.normalized(width: 1280, height: 720)
        }
        let fit = try #require(ParabolaFit(points: points))
        let (a, b, c) = (fit.coefficients.a, fit.coefficients.b, fit.coefficients.c)
        #expect(a.isFinite && b.isFinite && c.isFinite)
        #expect(abs(a) <= ParabolaFit.maximumMagnitudeOfA)
        #expect(abs(b) <= ParabolaFit.maximumMagnitudeOfB)
        // The x spread is a pixel at most: no power of x can be measured.
        #expect(fit.degree == 0)
        for point in points.suffix(5) {
            let projected = fit.coefficients.evaluate(at: point.x)
            #expect(projected.isFinite && projected >= 0 && projected <= 1)
        }
    }

    @Test("a few pixels of x drift support a line but not a parabola, and stay within the bounds")
    func smallDrift() throws {
        let points = (0..<10).map { index in
            let t = Double(index) / 30
            return PixelPoint(x: 640 + 40 * t, y: 600 - 900 * t + 1500 * t * t).normalized(width: 1280, height: 720)
        }
        let fit = try #require(ParabolaFit(points: points))
        #expect(fit.degree == 1)
        #expect(fit.coefficients.a == 0)
        #expect(abs(fit.coefficients.b) <= ParabolaFit.maximumMagnitudeOfB)
    }

    @Test("x taking only two values cannot support a quadratic term")
    func twoDistinctX() throws {
        let points = [0.2, 0.2, 0.4, 0.4, 0.4].enumerated().map { NormalizedPoint(x: $1, y: 0.1 * Double($0)) }
        let fit = try #require(ParabolaFit(points: points))
        #expect(fit.degree == 1)
        #expect(fit.coefficients.a == 0)
        #expect(fit.coefficients.b.isFinite)
    }

    @Test("no points, no fit")
    func empty() {
        #expect(ParabolaFit(points: [NormalizedPoint]()) == nil)
    }
}

@Suite struct KinematicFitTests {
    /// x linear, y quadratic in time: the path the tracker predicts with.
    static func position(at t: Double) -> PixelPoint {
        PixelPoint(x: 200 + 300 * t, y: 600 - 900 * t + 0.5 * 1600 * t * t)
    }

    @Test("exact samples at uneven times (dropped frames) predict the path exactly, even far from t = 0", arguments: [0.0, 86_400.0])
    func exactPrediction(timeOffset: Double) throws {
        let frames = [0, 1, 2, 4, 5, 8, 9]
        let samples = frames.map { frame in
            let t = Double(frame) / 30
            return TimedPosition(time: timeOffset + t, position: Self.position(at: t))
        }
        let fit = try #require(KinematicFit(samples: samples))
        let future = 12.0 / 30
        let predicted = fit.position(at: timeOffset + future)
        let truth = Self.position(at: future)
        #expect(abs(predicted.x - truth.x) < 1e-6 && abs(predicted.y - truth.y) < 1e-6)
        #expect(abs(fit.acceleration.y - 1600) < 1e-3)
        #expect(abs(fit.velocity(at: timeOffset).x - 300) < 1e-6)
        #expect(fit.residualRootMeanSquare < 1e-6)
    }

    @Test("with centroid noise the truth lies within three predicted standard deviations", arguments: [11, 12, 13, 14, 15] as [UInt64])
    func noisyPrediction(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let noise = 0.5
        let samples = (0..<10).map { frame in
            let t = Double(frame) / 30
            let p = Self.position(at: t)
            return TimedPosition(time: t, position: PixelPoint(
                x: p.x + random.gaussian(standardDeviation: noise), y: p.y + random.gaussian(standardDeviation: noise)))
        }
        let fit = try #require(KinematicFit(samples: samples))
        for frame in [10, 12, 14] {
            let t = Double(frame) / 30
            let spread = fit.predictionStandardDeviation(at: t, centroidNoise: noise)
            let error = PixelVector(x: fit.position(at: t).x - Self.position(at: t).x, y: fit.position(at: t).y - Self.position(at: t).y)
            #expect(abs(error.x) < 3 * spread && abs(error.y) < 3 * spread)
        }
        // Predicting farther ahead is less certain.
        #expect(fit.predictionStandardDeviation(at: 14.0 / 30, centroidNoise: noise)
            > fit.predictionStandardDeviation(at: 10.0 / 30, centroidNoise: noise))
    }

    @Test("two samples give a constant-velocity fit; one gives none")
    func fewSamples() throws {
        let two = [TimedPosition(time: 0, position: PixelPoint(x: 0, y: 0)), TimedPosition(time: 0.1, position: PixelPoint(x: 10, y: 20))]
        let fit = try #require(KinematicFit(samples: two))
        #expect(fit.acceleration.y == 0)
        let predicted = fit.position(at: 0.2)
        #expect(abs(predicted.x - 20) < 1e-9 && abs(predicted.y - 40) < 1e-9)
        #expect(KinematicFit(samples: two.prefix(1)) == nil)
    }
}
