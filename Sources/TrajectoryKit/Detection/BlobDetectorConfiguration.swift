extension BlobDetector {
    /// What the detector reports and how sensitive it is.
    public struct Configuration: Sendable, Hashable {
        /// Only blobs whose centre lies in this rectangle are reported. Normalized to the full
        /// frame, bottom-left origin, as Vision's `regionOfInterest`; the whole frame by default.
        public var regionOfInterest: NormalizedRect = .full
        /// Smallest reported radius, divided by the frame width.
        public var minimumNormalizedRadius: Double = 0
        /// Largest reported radius, divided by the frame width. The radius is the object's
        /// (across the streak for a motion-blurred ball), so a limit a little above the ball's
        /// excludes people, arms and other large moving things, along with the small pieces of
        /// them that show up beside their main region.
        public var maximumNormalizedRadius: Double = 1
        /// A pixel belongs to a moving region when its change reaches this many noise sigmas
        /// (``MotionThresholds/noiseSigma``). Lower keeps more of a faint ball's edge.
        public var lowThresholdFactor: Double = 2.5
        /// A region counts only if some pixel's change reaches this many noise sigmas.
        /// Lower finds fainter balls and more noise.
        public var highThresholdFactor: Double = 4
        /// Floor of the low threshold in grey levels, for frames with almost no noise.
        public var minimumLowThreshold: Int = 4
        /// Floor of the high threshold in grey levels.
        public var minimumHighThreshold: Int = 10
        /// Smallest region, in pixels of the analysed frame, that can be a blob.
        public var minimumArea: Int = 4
        /// The frame is analysed shrunk this many times in each direction (1, 2 or 4), each
        /// analysed pixel the mean of a block of the frame's: a quarter or a sixteenth of the
        /// work, and of the noise's variance, for balls at least a few analysed pixels across.
        /// Blobs are reported in pixels of the full frame all the same. Changing it starts the
        /// detector's history afresh, as a frame of a new size does. Default 1.
        public var analysisReduction: Int = 1

        /// The reductions ``analysisReduction`` may take.
        public static let allowedAnalysisReductions = [1, 2, 4]

        public init(
            regionOfInterest: NormalizedRect = .full,
            minimumNormalizedRadius: Double = 0,
            maximumNormalizedRadius: Double = 1
        ) {
            self.regionOfInterest = regionOfInterest
            self.minimumNormalizedRadius = minimumNormalizedRadius
            self.maximumNormalizedRadius = maximumNormalizedRadius
        }

        /// Stops with a message naming the allowed range when a setting makes no sense.
        func validate() {
            precondition(
                regionOfInterest.isValidRegionOfInterest,
                "regionOfInterest must have a positive size and lie inside the unit square, got \(regionOfInterest)")
            precondition(
                minimumNormalizedRadius >= 0 && minimumNormalizedRadius <= maximumNormalizedRadius,
                "need 0 ≤ minimumNormalizedRadius ≤ maximumNormalizedRadius, got \(minimumNormalizedRadius) and \(maximumNormalizedRadius)")
            precondition(
                lowThresholdFactor > 0 && highThresholdFactor >= lowThresholdFactor,
                "need 0 < lowThresholdFactor ≤ highThresholdFactor, got \(lowThresholdFactor) and \(highThresholdFactor)")
            precondition(
                (1...255).contains(minimumLowThreshold) && (minimumLowThreshold...255).contains(minimumHighThreshold),
                "need 1 ≤ minimumLowThreshold ≤ minimumHighThreshold ≤ 255, got \(minimumLowThreshold) and \(minimumHighThreshold)")
            precondition(minimumArea >= 1, "minimumArea must be at least 1 pixel, got \(minimumArea)")
            precondition(
                Self.allowedAnalysisReductions.contains(analysisReduction),
                "analysisReduction must be one of \(Self.allowedAnalysisReductions), got \(analysisReduction)")
        }

        /// Whether a blob found in a `frameWidth` × `frameHeight` frame passes the radius and
        /// region-of-interest filters.
        func accepts(_ blob: Blob, frameWidth: Int, frameHeight: Int) -> Bool {
            let normalizedRadius = blob.radius / Double(frameWidth)
            return normalizedRadius >= minimumNormalizedRadius && normalizedRadius <= maximumNormalizedRadius
                && regionOfInterest.contains(blob.center.normalized(width: frameWidth, height: frameHeight))
        }
    }
}
