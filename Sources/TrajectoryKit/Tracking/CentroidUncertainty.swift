extension FreeFlightTest {
    /// The noise of a confirmed ball's detection's centre, pixels, for a ball of `ballRadius`
    /// pixels: 0 (the ordinary centroid noise) when the blob is the whole ball alone — solid,
    /// of the ball's size within `wholeDetectionRadiusRatio`, and not two parts joined
    /// (`SplitBall`) — and otherwise
    /// `partialDetectionNoisePerRadius` of the ball's radius. A blob that is only part of the
    /// ball (the rest no different from what is behind it) or the ball merged with something
    /// moving beside it has its centre anywhere on the ball, often several pixels from the
    /// ball's, which would drag an ordinary fit off the flight.
    func centroidNoise(of sample: TrackSample, ballRadius: Double) -> Double {
        let ratio = sample.radius / max(ballRadius, .leastNormalMagnitude)
        let isWhole = !sample.detection.joinedFromParts
            && sample.detection.solidity >= criteria.wholeDetectionMinimumSolidity
            && ratio <= criteria.wholeDetectionRadiusRatio && ratio >= 1 / criteria.wholeDetectionRadiusRatio
        return isWhole ? 0 : criteria.partialDetectionNoisePerRadius * ballRadius
    }
}
