extension TrajectoryTracker {
    /// The tracker's settings, checked when made: an out-of-range value throws a
    /// `ConfigurationError` that names the allowed range.
    public struct Configuration: Sendable, Hashable {
        /// The values `trajectoryLength` may take. Vision requires at least 5; the upper end
        /// only keeps the per-track window finite (1000 points is half a minute at 30 fps).
        public static let allowedTrajectoryLengths = 5...1000
        /// The values `maximumMissedFrames` may take.
        public static let allowedMissedFrames = 0...100

        /// Points a trajectory needs before it is reported; `detectedPoints` holds at most this
        /// many of the latest points (Vision's `trajectoryLength`).
        public let trajectoryLength: Int
        /// Analysed frames in a row a track may go without a point (an occlusion, a missed
        /// detection) and still continue with the same uuid, when frames are analysed at 30 a
        /// second or fewer; at a higher rate, as many as take the same time (twice as many at
        /// 60 a second: see `FramePace`).
        public let maximumMissedFrames: Int
        /// What counts as one free flight.
        public let flight: FlightCriteria
        /// How fast a ball may move, for gating tracks that have too few points to predict with.
        public let motion: MotionLimits
        /// Which blobs may start a track, and which only extend one.
        public let blobs: BlobCriteria
        /// What tells a ball moving on its own from a part of something larger.
        public let independence: IndependenceCriteria
        /// How well a track's detections must look like a ball to confirm it.
        public let evidence: EvidenceCriteria

        public init(
            trajectoryLength: Int = 10, maximumMissedFrames: Int = 4,
            flight: FlightCriteria = FlightCriteria(), motion: MotionLimits = MotionLimits(),
            blobs: BlobCriteria = BlobCriteria(), independence: IndependenceCriteria = IndependenceCriteria(),
            evidence: EvidenceCriteria = EvidenceCriteria()
        ) throws(ConfigurationError) {
            try ConfigurationError.check("trajectoryLength", trajectoryLength, in: Self.allowedTrajectoryLengths)
            try ConfigurationError.check("maximumMissedFrames", maximumMissedFrames, in: Self.allowedMissedFrames)
            try flight.validate()
            try motion.validate()
            try blobs.validate()
            try independence.validate()
            try evidence.validate()
            self.trajectoryLength = trajectoryLength
            self.maximumMissedFrames = maximumMissedFrames
            self.flight = flight
            self.motion = motion
            self.blobs = blobs
            self.independence = independence
            self.evidence = evidence
        }
    }

    /// The cues that tell one ball in free flight from other motion (see DESIGN.md, "Physics
    /// worth using"). Lengths are pixels of the full frame, accelerations pixels per second
    /// squared, y down.
    public struct FlightCriteria: Sendable, Hashable {
        /// Smallest standard deviation assumed for a detected centre, pixels.
        public var centroidNoiseFloor = 0.5
        /// Centroid noise assumed per pixel of ball radius: a large blob's centre wanders more.
        /// The noise used is max(`centroidNoiseFloor`, this × mean radius).
        public var centroidNoisePerRadius = 0.05
        /// How many standard deviations make a difference real rather than noise (gates,
        /// acceleration tests).
        public var significance = 3.0
        /// Largest root-mean-square residual of the constant-acceleration fit, in units of the
        /// centroid noise (per degree of freedom). 2 accepts detectors up to about twice as
        /// noisy as assumed and rejects a ball swung in a circle.
        public var maximumNormalizedResidual = 2.0
        /// Largest angle, radians, between the acceleration and straight down the frame:
        /// the camera's roll (and air drag) tilt the apparent gravity a little. 15°.
        public var maximumTilt = 15.0 * Double.pi / 180
        /// A ball that is not rolling falls at least this many of its own radii per second
        /// squared: g ÷ the ball's radius, about 80 for a basketball (0.12 m), more for every
        /// smaller ball (300 for a tennis ball). 60 leaves a margin for a radius measured large
        /// (blur, a shadow) and allows balls up to 0.16 m. Apparent gravity and apparent radius
        /// shrink alike with distance, so the bound holds at any depth. A marker going round a
        /// circle or a ball swung on an arm curves down more gently for its size (30–65 in our
        /// scenes), and a walking person's bobbing far more so. Footage slowed down in time
        /// (slow motion played at its playback rate) falls more gently too: lower this for it.
        public var minimumFallAccelerationPerRadius = 60.0
        /// Relative change of acceleration allowed between the first and second half of the
        /// points that confirm a track, beyond noise.
        public var accelerationTolerance = 0.1
        /// Relative difference allowed between the latest points' acceleration and the whole
        /// track's, beyond noise, for a confirmed track to take a point (drag and perspective
        /// change it slowly over a long flight; a bounce or a catch changes it at once).
        public var trackAccelerationTolerance = 0.35
        /// Smallest extent of the points (diagonal of their bounding box), in ball radii:
        /// a blinking light or a jittering blob in place is not a flight.
        public var minimumTravelInRadii = 2.0
        /// Radius changes allowed: at least 80 % of the points must have a radius within this
        /// factor's square root of the mean radius (2: within ×/÷ 1.41).
        public var maximumRadiusRatio = 2.0
        /// How far off its predicted path, in ball radii beyond the prediction's gate, a
        /// confirmed flight still takes a detection as its ball: one merged with something
        /// behind it, split at the apex or blurred. Such points are reported but not fitted.
        /// A bounce or a catch turns the ball farther than its own size in one frame.
        public var displacedDetectionInRadii = 1.0
        /// A confirmed ball's blob whose radius is within this factor of the ball's (either
        /// way), and at least `wholeDetectionMinimumSolidity` solid, is the whole ball alone and
        /// its centre carries the ordinary centroid noise.
        public var wholeDetectionRadiusRatio = 1.25
        /// See `wholeDetectionRadiusRatio`.
        public var wholeDetectionMinimumSolidity = 0.85
        /// The centroid noise, in ball radii, of any other blob of a confirmed ball: part of the
        /// ball, or the ball merged with something beside it, whose centre may lie anywhere on
        /// the ball (three standard deviations reach its edge). Such points weigh little in the
        /// flight's fit.
        public var partialDetectionNoisePerRadius = 1.0 / 3
        /// A confirmed flight's ball predicted to move less than this many of its radii from
        /// one analysed frame to the next is nearly still (at the apex of a steep flight): the
        /// motion image shows little or nothing of it, so frames without its point do not
        /// count towards `maximumMissedFrames` (counted in time above 30 frames a second), up
        /// to that many of them again. A 12-pixel ball analysed at 960 × 540 is lost below about
        /// a pixel a frame (a tenth of its radius).
        /// The value is not critical: in the accuracy report (seeds 1–11, and every scene at 60
        /// and at 240 frames a second) 0.1 and 0.25 score as 0.15 does, and 0.4 the same but for
        /// one false trajectory fewer at 60 frames a second; 0 splits hd60-6's first flight in two
        /// and loses a flight at 60 frames a second (24 November 2026).
        public var stillBallTravelInRadii = 0.15

        public init() {}

        func validate() throws(ConfigurationError) {
            try ConfigurationError.check("centroidNoiseFloor", centroidNoiseFloor, in: 0.01...1000)
            try ConfigurationError.check("centroidNoisePerRadius", centroidNoisePerRadius, in: 0...1)
            try ConfigurationError.check("significance", significance, in: 0.5...10)
            try ConfigurationError.check("maximumNormalizedResidual", maximumNormalizedResidual, in: 0.5...100)
            try ConfigurationError.check("maximumTilt", maximumTilt, in: 0...(Double.pi / 2 - 0.01))
            try ConfigurationError.check("minimumFallAccelerationPerRadius", minimumFallAccelerationPerRadius, in: 0...10_000)
            try ConfigurationError.check("accelerationTolerance", accelerationTolerance, in: 0...10)
            try ConfigurationError.check("trackAccelerationTolerance", trackAccelerationTolerance, in: 0...10)
            try ConfigurationError.check("minimumTravelInRadii", minimumTravelInRadii, in: 0...1000)
            try ConfigurationError.check("maximumRadiusRatio", maximumRadiusRatio, in: 1...100)
            try ConfigurationError.check("displacedDetectionInRadii", displacedDetectionInRadii, in: 0...100)
            try ConfigurationError.check("wholeDetectionRadiusRatio", wholeDetectionRadiusRatio, in: 1...100)
            try ConfigurationError.check("wholeDetectionMinimumSolidity", wholeDetectionMinimumSolidity, in: 0...1)
            try ConfigurationError.check("partialDetectionNoisePerRadius", partialDetectionNoisePerRadius, in: 0...10)
            try ConfigurationError.check("stillBallTravelInRadii", stillBallTravelInRadii, in: 0...10)
        }
    }

    /// Bounds on a ball's motion in the image, in frame widths (per second, per second squared)
    /// so they hold at any resolution. They size the gates of tentative tracks, which are not
    /// yet known to be flights: the speed for a track of one point, the acceleration (beyond
    /// what the track's fit models) for longer ones.
    public struct MotionLimits: Sendable, Hashable {
        /// Fastest a ball may cross the image: 3 widths per second (a 1280-pixel frame in
        /// a third of a second, 128 pixels a frame at 30 fps).
        public var maximumSpeed = 3.0
        /// Largest apparent acceleration: 6 widths per second squared (gravity of a ball a few
        /// centimetres across filling a frame a metre or two wide).
        public var maximumAcceleration = 6.0

        public init() {}

        func validate() throws(ConfigurationError) {
            try ConfigurationError.check("maximumSpeed", maximumSpeed, in: 0.01...1000)
            try ConfigurationError.check("maximumAcceleration", maximumAcceleration, in: 0.01...10_000)
        }
    }

    /// What makes a blob weak. A weak blob may extend a track (a ball half hidden by a hand,
    /// blurred against a busy background) but does not start one, so clutter starts fewer
    /// tracks; only in a quiet frame may a faint but solid one (`minimumQuietStartContrast`).
    public struct BlobCriteria: Sendable, Hashable {
        /// Mean luma change (0–255) below which a blob is weak.
        public var minimumContrast = 10.0
        /// In a quiet frame (at most `quietFrameBlobCount` blobs), a blob fainter than
        /// `minimumContrast` but at least this clear, solid and no longer than a blurred ball,
        /// may start a track too: a faint ball may never show a clear blob, and where nothing
        /// else moves there is no clutter to flicker faintly. At most `minimumContrast`.
        public var minimumQuietStartContrast = 6.0
        /// The most blobs a frame may hold and still be quiet (see `minimumQuietStartContrast`).
        public var quietFrameBlobCount = 4
        /// Solidity below which a blob is ragged (a hand, foliage) and so weak.
        public var minimumSolidity = 0.6
        /// Elongation above which a blob is weak when its speed is unknown (a new track). A
        /// football kicked at 50 m/s (the hardest kicks) filmed at 30 fps with the common
        /// half-frame shutter travels about four diameters during the exposure: a streak five
        /// times as long as it is wide.
        public var maximumElongation = 5.0
        /// Elongation a blob may have beyond what motion blur explains: blur over one frame
        /// interval at the track's speed v stretches a ball of radius r to 1 + v·Δt / 2r;
        /// more than that plus this slack is weak (an arm, a streak of something else).
        public var elongationSlack = 1.5
        /// A blob whose radius differs from the track's mean radius by more than this factor
        /// (either way) is weak for that track, and one larger than a confirmed flight's ball
        /// by more than it is not taken for that ball at all (the ball merged with something
        /// larger: its centre does not place the ball).
        public var maximumRadiusMismatch = 2.5
        /// A tentative track that has followed faint clutter (it holds at least a window of
        /// points, no more than half of them strong) starts afresh from a blob this many times
        /// clearer than the clearest point of its latest window: that blob is a new object, a
        /// ball thrown past the flicker the track was following. Otherwise the track would take
        /// the ball's blobs with its clutter points still in its history, which keep it from
        /// being confirmed until they have left it, and no track of the ball's own would start.
        /// The same ratio tells a young track's few weak first points from the ball it then
        /// found, so that they do not count against confirming it: each must be this many times
        /// fainter than the points after it (or of another size). Infinity turns both off.
        public var newObjectContrastRatio = 1.8

        public init() {}

        func validate() throws(ConfigurationError) {
            try ConfigurationError.check("minimumContrast", minimumContrast, in: 0...255)
            try ConfigurationError.check("minimumQuietStartContrast", minimumQuietStartContrast, in: 0...minimumContrast)
            try ConfigurationError.check("quietFrameBlobCount", quietFrameBlobCount, in: 0...1000)
            try ConfigurationError.check("minimumSolidity", minimumSolidity, in: 0...1)
            try ConfigurationError.check("maximumElongation", maximumElongation, in: 1...1000)
            try ConfigurationError.check("elongationSlack", elongationSlack, in: 0...1000)
            try ConfigurationError.check("maximumRadiusMismatch", maximumRadiusMismatch, in: 1...1000)
            try ConfigurationError.check("newObjectContrastRatio", newObjectContrastRatio, in: 1...Double.infinity)
        }
    }

    /// The independent-motion cue (see DESIGN.md, "Physics worth using"): a ball moves on its
    /// own, while the letters of a scrolling board, the head of a walker or edges shaken by the
    /// camera move together with blobs beside them. A track is confirmed only if most of its
    /// points, where this can be told, had no neighbour moving with them.
    public struct IndependenceCriteria: Sendable, Hashable {
        /// How far from the ball, in ball radii (plus the neighbour's own radius), a blob counts
        /// as a neighbour.
        public var neighbourhoodInRadii = 8.0
        /// A neighbour's centroid may wander by this fraction of its radius as its shape changes
        /// and still count as moving with the ball (the centroid noise is allowed in any case).
        public var shapeWanderPerRadius = 0.35
        /// The ball must have moved at least this many of its radii since the earlier frame
        /// compared with, or its neighbours' motion is not told (a slow ball would "share" the
        /// motion of anything standing still).
        public var minimumDisplacementInRadii = 1.0
        /// Analysed frames kept for the comparison, the current one included: how far back a
        /// slow ball may be compared. Something moving less than `minimumDisplacementInRadii`
        /// radii over these frames is never compared and gets the benefit of the doubt; 12
        /// reach down to about a tenth of a radius a frame. With 6, the edges of a bus's
        /// windows drifting a pixel a frame, each a blob of radius 6, passed for rolling balls.
        public var framesKept = 12
        /// Blobs where the ball was in this many of its latest points do not count as
        /// neighbours: frame differencing may leave a residue there that follows the ball.
        public var ghostFrames = 3
        /// A track is not confirmed when at least this fraction of its points whose
        /// neighbours' motion is known moved with a neighbour.
        public var maximumSharedFraction = 0.5
        /// The same for a track at constant velocity (no gravity seen), which has no physical
        /// evidence of being a ball: a rolling ball moves alone, so a neighbour moving with it
        /// at even a few of its points gives it away.
        public var rollingMaximumSharedFraction = 0.1

        public init() {}

        func validate() throws(ConfigurationError) {
            try ConfigurationError.check("neighbourhoodInRadii", neighbourhoodInRadii, in: 0...1000)
            try ConfigurationError.check("shapeWanderPerRadius", shapeWanderPerRadius, in: 0...10)
            try ConfigurationError.check("minimumDisplacementInRadii", minimumDisplacementInRadii, in: 0...1000)
            try ConfigurationError.check("framesKept", framesKept, in: 2...100)
            try ConfigurationError.check("ghostFrames", ghostFrames, in: 0...100)
            try ConfigurationError.check("maximumSharedFraction", maximumSharedFraction, in: 0...1)
            try ConfigurationError.check("rollingMaximumSharedFraction", rollingMaximumSharedFraction, in: 0...1)
        }
    }

    /// How well a track's detections must look like a ball before it is confirmed (see
    /// DESIGN.md, "Physics worth using": a rolling ball is a trajectory, but constant velocity
    /// alone is no evidence of a ball).
    public struct EvidenceCriteria: Sendable, Hashable {
        /// Smallest fraction of a track's points whose blobs are clear of the frame's edge.
        public var minimumWholeFraction = 0.5
        /// Solidity below which a blob is ragged: a ball merged with the hand holding it, or
        /// with clutter.
        public var raggedSolidity = 0.6
        /// Largest fraction of a track's points whose blobs are ragged.
        public var maximumRaggedFraction = 0.3
        /// Smallest fraction of the points of a track at constant velocity (no gravity seen)
        /// whose blobs are strong, at least `rollingMinimumSolidity` solid and not inside a
        /// wider blob.
        public var rollingMinimumBallLikeFraction = 0.8
        /// Solidity a rolling ball's blob has when it is seen whole: a disc, or a blurred disc,
        /// fills most of its ellipse.
        public var rollingMinimumSolidity = 0.8
        /// Motion beside a ball, across its path, as a fraction of its own, from which that
        /// side moved with it (``SideMotion``). Over seeds 1–11 of the synthetic scenes the
        /// median on either side is at most 0.07 for true flights, and 0.10 and 0.16 for the
        /// two balls swung on an arm that the other cues pass.
        public var carrierSideMotion = 0.08
        /// The fraction of a track's points (of those whose side motion is known) beyond which
        /// one side moving with the ball marks it as carried: one side at most points, so that
        /// clutter passed now on one side and now on the other does not.
        public var maximumCarriedFraction = 0.5
        /// Points with known side motion a track needs before it can be judged carried.
        public var leastCarrierSamples = 5

        public init() {}

        func validate() throws(ConfigurationError) {
            try ConfigurationError.check("minimumWholeFraction", minimumWholeFraction, in: 0...1)
            try ConfigurationError.check("raggedSolidity", raggedSolidity, in: 0...1)
            try ConfigurationError.check("maximumRaggedFraction", maximumRaggedFraction, in: 0...1)
            try ConfigurationError.check("rollingMinimumBallLikeFraction", rollingMinimumBallLikeFraction, in: 0...1)
            try ConfigurationError.check("rollingMinimumSolidity", rollingMinimumSolidity, in: 0...1)
            try ConfigurationError.check("carrierSideMotion", carrierSideMotion, in: 0...Double.infinity)
            try ConfigurationError.check("maximumCarriedFraction", maximumCarriedFraction, in: 0...1)
            try ConfigurationError.check("leastCarrierSamples", leastCarrierSamples, in: 1...Int.max)
        }
    }
}
