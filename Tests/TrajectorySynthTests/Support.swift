import TrajectoryEvaluation
import TrajectoryKit
import TrajectorySynth

/// FNV-1a over a frame's bytes: a compact fingerprint for comparing renders.
func fingerprint(_ image: LumaImage) -> UInt64 {
    image.pixels.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
}

/// Least-squares polynomial of `degree` through (t, v), returned lowest power first, and
/// the largest residual. Times are centred for conditioning; coefficients are for the
/// centred variable.
func polynomialFit(_ t: [Double], _ v: [Double], degree: Int) -> (coefficients: [Double], center: Double, maxResidual: Double) {
    let center = t.reduce(0, +) / Double(t.count)
    let n = degree + 1
    var normal = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
    for (time, value) in zip(t, v) {
        let x = time - center
        let powers = (0..<n).map { p in (0..<p).reduce(1.0) { acc, _ in acc * x } }
        for i in 0..<n {
            for j in 0..<n { normal[i][j] += powers[i] * powers[j] }
            normal[i][n] += powers[i] * value
        }
    }
    // Gauss–Jordan elimination with partial pivoting.
    for column in 0..<n {
        let pivot = (column..<n).max { abs(normal[$0][column]) < abs(normal[$1][column]) }!
        normal.swapAt(column, pivot)
        for row in 0..<n where row != column {
            let factor = normal[row][column] / normal[column][column]
            for k in column...n { normal[row][k] -= factor * normal[column][k] }
        }
    }
    let coefficients = (0..<n).map { normal[$0][n] / normal[$0][$0] }
    let residual = zip(t, v).map { time, value in
        let x = time - center
        return abs(value - coefficients.enumerated().reduce(0) { $0 + $1.element * (0..<$1.offset).reduce(1.0) { a, _ in a * x } })
    }.max() ?? 0
    return (coefficients, center, residual)
}

/// A small scene with a still camera and a noiseless sensor, for checking geometry.
func quietScene(
    balls: [ThrownBall], actors: [any SceneActor] = [], width: Int = 320, height: Int = 240, frameCount: Int = 30,
    shutterFraction: Double = 0.5
) -> SceneScript {
    SceneScript(
        name: "test", seed: 7, width: width, height: height, frameRate: 30, frameCount: frameCount, gravity: 700,
        backdrop: Backdrop(style: .gym, seed: 3, horizon: 0.6, upperLevel: 150, lowerLevel: 100, texture: 0),
        sensor: Sensor(shutterFraction: shutterFraction, noiseDeviation: 0, vignetting: 0),
        balls: balls, actors: actors)
}

/// A ball flying from `start` with `velocity` from time 0 in a scene of `frame` size, the
/// floor far below (no bounce) unless given.
func flyingBall(
    start: SIMD2<Double>, velocity: SIMD2<Double>, radius: Double = 6, gravity: Double = 700,
    floorY: Double = 10_000, frame: SIMD2<Double> = SIMD2(320, 240), light: SIMD3<Double> = SIMD3(0, 0, 1),
    restitution: Double = 0.7
) -> ThrownBall {
    let path = BallPath(
        launchTime: 0, start: start, velocity: velocity, gravity: gravity, radius: radius, floorY: floorY,
        restitution: restitution, minimumHop: 0.1, frame: frame, endTime: 2, restsBeforeLaunch: false)
    return ThrownBall(appearance: BallAppearance(radius: radius, albedo: 235, ambient: 0.5, light: light), path: path)
}

/// The centroid of the ball in each of `frames`, weighted by how much each pixel differs
/// from the same scene rendered without the balls (pixel centres at +0.5); nil where the
/// ball does not show at all.
func ballCentroids(in script: SceneScript, frames: [Int]) -> [SIMD2<Double>?] {
    var withBall = SceneRenderer(script: script)
    var empty = script
    empty.balls = []
    var without = SceneRenderer(script: empty)
    return frames.map { index in
        let a = withBall.render(frame: index)
        let b = without.render(frame: index)
        var total = 0.0
        var sum = SIMD2<Double>.zero
        for (offset, (p, q)) in zip(a.pixels, b.pixels).enumerated() where p != q {
            let weight = abs(Double(p) - Double(q))
            total += weight
            sum += weight * SIMD2(Double(offset % a.width) + 0.5, Double(offset / a.width) + 0.5)
        }
        return total > 0 ? sum / total : nil
    }
}
