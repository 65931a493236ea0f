/// A measured camera motion and its standard error in each direction, in pixels.
struct CameraMotionEstimate {
    var motion: CameraMotion
    var standardError: (x: Double, y: Double)
    /// The share of the tracking points' misfit with no motion (their summed Tukey loss) that
    /// the motion takes away; 0 for none. How clearly the motion is the camera's: see
    /// ``BlobDetector/lastCameraMotionIsClear``.
    var explainedMisfit = 0.0
}

/// Measures how far the picture moved between the current frame and earlier ones: the shake of
/// a hand-held camera, a translation of up to a couple of dozen pixels per frame, or a pan that
/// speeds up to any speed by no more than that per frame, to a few hundredths of a pixel,
/// whatever moves in front of the background.
///
/// Against the frame before, the motion is found coarse to fine:
/// 1. over the whole frame shrunk eight times, the whole-pixel shift (up to ±2, so ±16 px of the
///    frame) with the least sum of absolute differences: a sum over every pixel, which objects
///    moving across a small part of the frame cannot swing; after a motion of 12 px or more,
///    also within ±2 of it there (a pan goes on at about the speed it had);
/// 2. the same at a quarter of the size, within a pixel of twice that;
/// 3. at full size, over the ``TrackingPoints`` only, within two pixels of four times that;
/// 4. to a fraction of a pixel by Lucas–Kanade on the tracking points: each point's gradient
///    turns its difference from the earlier frame into a shift across its edge, and the least
///    squares over all points give the shift, while points that do not fit (on a moving object)
///    are weighted down (Tukey's biweight) and left out;
/// 5. no motion at all is kept when it explains the points as well, but for what fitting two
///    numbers to noise gains: in a small frame with little texture, a ball can hold enough of
///    the points to pull the fit its way.
///
/// Against older frames, whose motion is already known to within a pixel by chaining the
/// motions from frame to frame, only steps 3 to 5 run.
///
/// A camera that was still a frame ago is first tried for none, on the tracking points alone:
/// step 3 around none and step 4 from there. This shortcut is a heuristic, not the search by
/// other means: it answers only "still", and only when the fit is as tight as the whole
/// search's last "still" was (see ``motionSincePrevious(current:previous:layout:)``); anything
/// else goes through steps 1 to 5. The shrunk frames steps 1 and 2 need are made only then.
///
/// Buffers are kept between frames: nothing is allocated after the first frame of a given size.
struct CameraMotionEstimator {
    /// Largest shift searched at an eighth of the size, in its pixels (±16 px of the frame, and
    /// with the finer searches up to ±22 px from one frame to the next).
    static let coarseRadius = 2
    /// Largest change per iteration, in pixels, at which Lucas–Kanade has converged.
    static let convergence = 0.01
    static let maximumIterations = 8
    /// How far, in pixels, the offset may be from the truth when Lucas–Kanade starts from the
    /// best whole-pixel offset, and once it has converged: a point whose residual is more than
    /// that far along its gradient (plus noise) is not on the still background, and is left
    /// out. Points are weighted by how far within that they are (Tukey's biweight), but the
    /// tolerance is wide enough that the background's points weigh nearly alike, so the
    /// iterations converge fast.
    static let startUncertainty = 1.0
    static let finalUncertainty = 0.25
    /// How far, in pixels, a point's residual may stray along its gradient when the offset is
    /// right: bilinear blending misses a sharp edge by a few hundredths of a pixel, and the
    /// frames' rounding by more on a faint one. Each point is weighted by the inverse of its
    /// residual's variance, noise plus this, so a sharp edge counts about as much as any other
    /// point that fixes the shift well: a few strong edges (a ball, a shirt) cannot outweigh
    /// the many points of the background.
    static let modelError = 0.1
    /// Least number of tracking points the motion is measured from (a frame of about 250 × 200
    /// pixels has them). Fewer cannot tell the camera's motion from that of a ball filling much
    /// of a tiny frame: the camera is then taken to be still.
    static let leastPoints = 200
    /// The whole-pixel searches count no pixel's difference beyond this many grey levels.
    static let differenceCap: UInt8 = 32
    /// The motion is trusted only if at least this fraction of the tracking points (those
    /// inside both frames) fit it: else it is that of something large moving across a frame
    /// with little texture.
    static let leastFittingFraction = 1.0 / 3

    private var quarter = ReducedFrame(), eighth = ReducedFrame()
    private var previousQuarter = ReducedFrame(), previousEighth = ReducedFrame()
    /// Whether `quarter` and `eighth`, and the previous ones, hold their frames yet: they are
    /// made only when the coarse search needs them, which a still camera seldom does.
    private var reductionsAreCurrent = false, previousReductionsAreCurrent = false
    /// The last motion since the previous frame the search found (exactly none when too small to
    /// tell from none), or nil when it could not tell or there was none to find. A pan goes on
    /// at about the speed it had (see ``panCentre``).
    private var lastMotion: CameraMotion?
    /// Whether the last motion since the previous frame was too small to tell from none.
    private var lastMotionWasStill: Bool { lastMotion == .zero }
    /// Frames since the tracking points were last chosen, this one included.
    private var framesSincePointsChosen = 0
    /// The larger standard error of the last "still" the whole search found: how tight a fit to
    /// none the points of this scene give when the camera is still.
    private var stillStandardError = 0.0
    private(set) var points = TrackingPoints()
    /// Each point's residual in the current iteration, or nan when it is left out.
    private var residuals: [Double] = []
    /// The residuals of another offset, to compare with.
    private var comparedResiduals: [Double] = []
    /// Counts of |residual| in bins of `residualBinWidth`, for their median.
    private var residualHistogram = [Int](repeating: 0, count: 256)
    private static let residualBinWidth = 0.25

    /// Makes `frame` the current frame and gives it tracking points. The shrunk copies of the
    /// frame that was current before, if they were made, are kept for
    /// ``motionSincePrevious(current:previous:layout:)``.
    ///
    /// While the camera is still, the points are chosen afresh only every ``pointChoiceInterval``
    /// frames, and in between kept where they are, with this frame's grey levels and gradients:
    /// choosing scans 30 000 pixels, about a tenth of a 720p frame's analysis. A still
    /// background's strongest edges stay where they were, and a point that something moved
    /// over is left out by the fit like any other point on a moving object. Kept points only
    /// ever serve the shortcut for a still camera and the motion since older frames: if the
    /// shortcut does not find the camera still, the points are chosen afresh for the search.
    mutating func prepare(current frame: Span<UInt8>, layout: PlaneLayout) {
        swap(&quarter, &previousQuarter)
        swap(&eighth, &previousEighth)
        previousReductionsAreCurrent = reductionsAreCurrent
        reductionsAreCurrent = false
        if lastMotionWasStill, framesSincePointsChosen < Self.pointChoiceInterval, points.layout == layout {
            points.reread(from: frame)
            framesSincePointsChosen += 1
        } else {
            choosePoints(in: frame, layout: layout)
        }
    }

    private mutating func choosePoints(in frame: Span<UInt8>, layout: PlaneLayout) {
        points.choose(in: frame, layout: layout)
        framesSincePointsChosen = 1
    }

    /// How many frames a still camera's tracking points are kept for.
    static let pointChoiceInterval = 8

    /// The motion of the picture from `previous`, the frame that was current at the last
    /// ``prepare(current:layout:)``, to the current one; nil when it cannot be told (too
    /// little texture).
    mutating func motionSincePrevious(
        current: Span<UInt8>, previous: Span<UInt8>, layout: PlaneLayout
    ) -> CameraMotionEstimate? {
        // A camera still a frame ago is most likely still: try none first, on the tracking
        // points alone (see the type's comment). Anything but a tight "still", such as a camera
        // that starts to move, goes through the whole search.
        if lastMotionWasStill, let still = stillMotion(of: current, since: previous, layout: layout) {
            return still
        }
        if framesSincePointsChosen > 1 { choosePoints(in: current, layout: layout) }
        let estimate = searchedMotionSincePrevious(current: current, previous: previous, layout: layout)
        lastMotion = estimate?.motion
        if lastMotionWasStill, let estimate {
            stillStandardError = max(estimate.standardError.x, estimate.standardError.y)
        }
        return estimate
    }

    /// The motion since the previous frame when it is none: of the whole-pixel offsets within
    /// two pixels of none (those the whole search tries around none too), none matches the
    /// tracking points best; it refines to within the still tolerance; and the fit is about as
    /// tight as the whole search's last "still" (standard error at most
    /// ``stillFitLooseness`` times that one's). The last condition keeps the shortcut from
    /// answering "still" for a poor fit: points misaligned by a camera that jumped leave a wide
    /// spread of residuals, so a large standard error, within which any motion passes for none.
    private mutating func stillMotion(
        of current: Span<UInt8>, since previous: Span<UInt8>, layout: PlaneLayout
    ) -> CameraMotionEstimate? {
        guard points.points.count >= Self.leastPoints,
            bestWholeOffset(of: previous, layout: layout, near: (0, 0), alsoNear: nil, radius: 2) == (0, 0),
            let refined = refine(current: current, earlier: previous, layout: layout, from: (0, 0)),
            max(refined.standardError.x, refined.standardError.y) <= Self.stillFitLooseness * stillStandardError,
            Self.isWithinStillTolerance(refined.offset, standardError: refined.standardError)
        else { return nil }
        return CameraMotionEstimate(motion: .zero, standardError: refined.standardError)
    }

    /// How much looser than the whole search's last "still" a fit the shortcut may take. On the
    /// benchmark clips a still camera's standard error varies by less than 10 % from frame to
    /// frame (10th to 90th percentile).
    static let stillFitLooseness = 1.5

    /// Forgets the motion measured so far, as at the start of a stream or after the frame size
    /// changed: the next frame's motion is found by the whole search, from frames shrunk anew.
    mutating func restart() {
        lastMotion = nil
        reductionsAreCurrent = false
        previousReductionsAreCurrent = false
    }

    /// The search of ``motionSincePrevious(current:previous:layout:)``, steps 1 to 5.
    private mutating func searchedMotionSincePrevious(
        current: Span<UInt8>, previous: Span<UInt8>, layout: PlaneLayout
    ) -> CameraMotionEstimate? {
        // Too few points to tell the motion (step 3 would say so): spare the coarse searches.
        guard points.points.count >= Self.leastPoints else { return nil }
        makeReductions(current: current, previous: previous, layout: layout)
        var guess = (x: 0, y: 0)
        let pan = panCentre
        if let coarse = Self.bestOffset(
            of: eighth, in: previousEighth, around: (0, 0), alsoAround: pan, radius: Self.coarseRadius,
            margin: Self.coarseRadius + (pan.map { max(abs($0.x), abs($0.y)) } ?? 0))
        {
            guess = (2 * coarse.x, 2 * coarse.y)
        }
        if let finer = Self.bestOffset(
            of: quarter, in: previousQuarter, around: guess, radius: 1,
            margin: max(2 * Self.coarseRadius, abs(guess.x), abs(guess.y)) + 1)
        {
            guess = finer
        }
        // A still camera is the most common case by far, and the coarse search can be swayed
        // by an object that fills much of a small frame: the offsets around none are tried too.
        return motion(of: current, since: previous, layout: layout, near: (4 * guess.x, 4 * guess.y), alsoNear: (0, 0), radius: 2)
    }

    /// Where, besides around none, the coarse search looks at an eighth of the size: around the
    /// last motion, when the camera moved so fast that the search around none barely reaches it
    /// (``coarseRadius`` pixels there or more, once rounded: 12 px of the frame). A camera that pans
    /// goes on at about the speed it had, so the search follows it however fast it pans, as
    /// long as it speeds up or slows down by no more than the search around its last motion
    /// reaches (about ±22 px a frame). Nil when there is no such motion, or the shrunk frame is
    /// too small to compare at that offset.
    private var panCentre: (x: Int, y: Int)? {
        guard let motion = lastMotion, motion != .zero, let layout = eighth.layout else { return nil }
        // The offset to the nearest whole pixel, then to the nearest at an eighth of the size.
        let centre = (x: Int(((-motion.dx).rounded() / 8).rounded()), y: Int(((-motion.dy).rounded() / 8).rounded()))
        let margin = Self.coarseRadius + max(abs(centre.x), abs(centre.y))
        guard max(abs(centre.x), abs(centre.y)) >= Self.coarseRadius,
            layout.width - 2 * margin >= Self.leastComparedWidth, layout.height - 2 * margin >= Self.leastComparedHeight
        else { return nil }
        return centre
    }

    /// The least part of a shrunk frame, in its pixels, that the coarse searches compare.
    private static let leastComparedWidth = 8, leastComparedHeight = 4

    /// Shrinks the current frame, and the previous one if it was not shrunk when it was current,
    /// for the coarse searches.
    private mutating func makeReductions(current: Span<UInt8>, previous: Span<UInt8>, layout: PlaneLayout) {
        if !previousReductionsAreCurrent {
            previousQuarter.reduceByFour(previous, layout: layout)
            previousEighth.reduceByTwo(previousQuarter)
            previousReductionsAreCurrent = true
        }
        if !reductionsAreCurrent {
            quarter.reduceByFour(current, layout: layout)
            eighth.reduceByTwo(quarter)
            reductionsAreCurrent = true
        }
    }

    /// The motion of the picture from `earlier` to the current frame, known to be within about
    /// a pixel of `predicted`; nil when it cannot be told.
    mutating func motion(
        of current: Span<UInt8>, since earlier: Span<UInt8>, layout: PlaneLayout, predicted: CameraMotion
    ) -> CameraMotionEstimate? {
        let near = (x: Int((-predicted.dx).rounded()), y: Int((-predicted.dy).rounded()))
        return motion(of: current, since: earlier, layout: layout, near: near, alsoNear: nil, radius: 1)
    }

    /// Steps 3 and 4: the whole-pixel offset within `radius` of `near` (or of `alsoNear`) where
    /// the earlier frame best matches the tracking points, then refined.
    private mutating func motion(
        of current: Span<UInt8>, since earlier: Span<UInt8>, layout: PlaneLayout, near: (x: Int, y: Int),
        alsoNear: (x: Int, y: Int)?, radius: Int
    ) -> CameraMotionEstimate? {
        guard points.points.count >= Self.leastPoints else { return nil }
        let best = bestWholeOffset(of: earlier, layout: layout, near: near, alsoNear: alsoNear, radius: radius)
        guard let refined = refine(current: current, earlier: earlier, layout: layout, from: best)
        else { return nil }
        // A motion within the still tolerance counts as none whatever the test below says
        // (``BlobDetector/stillCameraTolerance``): a still camera, the common case, skips it.
        if Self.isWithinStillTolerance(refined.offset, standardError: refined.standardError) {
            return CameraMotionEstimate(motion: .zero, standardError: refined.standardError)
        }
        // Where the background has little texture, an object filling much of the frame can
        // pull the search and the fit its way: keep the still camera if it fits as well, but
        // for what fitting two numbers to noise gains.
        let loss = losses(stillAnd: refined.offset, current: current, earlier: earlier, layout: layout, noise: refined.noise)
        if loss.still <= loss.moved + Self.fittedLossAllowance {
            return CameraMotionEstimate(motion: .zero, standardError: refined.standardError)
        }
        return CameraMotionEstimate(
            motion: CameraMotion(dx: -refined.offset.x, dy: -refined.offset.y), standardError: refined.standardError,
            explainedMisfit: 1 - loss.moved / loss.still)
    }

    /// The whole-pixel offset within `radius` of `near` (or of `alsoNear`) where the earlier frame
    /// best matches the tracking points (``sparseCost(of:layout:offset:)``); ties go to the first
    /// tried, `near` itself and then ring by ring outwards.
    private func bestWholeOffset(
        of earlier: Span<UInt8>, layout: PlaneLayout, near: (x: Int, y: Int), alsoNear: (x: Int, y: Int)?, radius: Int
    ) -> (x: Int, y: Int) {
        var best = near, bestCost = Int.max
        func consider(_ offset: (x: Int, y: Int)) {
            let cost = sparseCost(of: earlier, layout: layout, offset: offset, giveUpAt: bestCost)
            if cost < bestCost {
                best = offset
                bestCost = cost
            }
        }
        Self.forEachOffset(around: near, alsoAround: alsoNear, radius: radius, consider)
        return best
    }

    /// Whether an offset is too small to tell from none: below ``BlobDetector/stillCameraTolerance``,
    /// or three standard errors, in both directions. Every estimate this type gives is exactly
    /// none when it is.
    /// (Written as "not moved" so that a motion that is not a number counts as none.)
    private static func isWithinStillTolerance(_ offset: (x: Double, y: Double), standardError: (x: Double, y: Double)) -> Bool {
        !(abs(offset.x) >= max(BlobDetector.stillCameraTolerance, 3 * standardError.x)
            || abs(offset.y) >= max(BlobDetector.stillCameraTolerance, 3 * standardError.y))
    }

    /// Σ over the tracking points of min(|earlier(p + offset) − current(p)|, cap): how badly the
    /// earlier frame matches at a whole-pixel offset. Capped, so that a point on a moving object
    /// costs no more than a point that is plainly off.
    ///
    /// The sum stops once it reaches `limit` (the best cost so far), since the offset cannot win
    /// then: most offsets tried are plainly off, and give up after a fraction of the points.
    private func sparseCost(of earlier: Span<UInt8>, layout: PlaneLayout, offset: (x: Int, y: Int), giveUpAt limit: Int) -> Int {
        let cap = Int(Self.differenceCap)
        let checkEvery = 64
        var cost = 0
        for (index, point) in points.points.enumerated() {
            if index % checkEvery == 0, cost >= limit { return cost }
            let x = point.column + offset.x, y = point.row + offset.y
            guard x >= 0, y >= 0, x < layout.width, y < layout.height else {
                cost += cap
                continue
            }
            cost += min(cap, Int(ScalarBytes.absoluteDifference(earlier[y * layout.bytesPerRow + x], point.level)))
        }
        return cost
    }

    /// Lucas–Kanade from `start`: the sub-pixel offset at which `earlier` shows what the tracking
    /// points show now, or nil when the points do not fix it in both directions.
    ///
    /// With the earlier frame read at p + o, a point's residual r = E(p + o) − C(p) is about
    /// ∇C(p) · (o − o*) near the true offset o*, so o* = o − H⁻¹ Σ w·∇C·r with H = Σ w·∇C·∇Cᵀ
    /// (the current frame's gradients, computed once: the inverse compositional form).
    private mutating func refine(
        current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, from start: (x: Int, y: Int)
    ) -> (offset: (x: Double, y: Double), standardError: (x: Double, y: Double), noise: Double)? {
        var offset = (x: Double(start.x), y: Double(start.y))
        var standardError = (x: 0.0, y: 0.0)
        var noise = 1.0
        // How far the offset may still be from the truth: a point's residual may be that far
        // along its gradient, on top of noise, before it counts against the point.
        var uncertainty = Self.startUncertainty
        for _ in 0..<Self.maximumIterations {
            computeResiduals(
                current: current, earlier: earlier, layout: layout, whole: start,
                fraction: (offset.x - Double(start.x), offset.y - Double(start.y)))
            noise = robustScale()
            var xx = 0.0, xy = 0.0, yy = 0.0, xr = 0.0, yr = 0.0, used = 0, valid = 0
            for (point, residual) in zip(points.points, residuals) where !residual.isNaN {
                valid += 1
                let limit = 4.685 * noise + point.gradientLength * uncertainty
                guard abs(residual) < limit else { continue }
                let u = residual / limit
                let weight = (1 - u * u) * (1 - u * u)
                    / (noise * noise + point.gradientSquared * Self.modelError * Self.modelError)
                xx += weight * point.gradientX * point.gradientX
                xy += weight * point.gradientX * point.gradientY
                yy += weight * point.gradientY * point.gradientY
                xr += weight * point.gradientX * residual
                yr += weight * point.gradientY * residual
                used += 1
            }
            let determinant = xx * yy - xy * xy
            // Both principal directions must carry weight: not just edges of one direction.
            let trace = xx + yy
            guard used >= Self.leastPoints, Double(used) >= Self.leastFittingFraction * Double(valid), trace > 0,
                determinant > 1e-4 * trace * trace
            else { return nil }
            let step = (x: (yy * xr - xy * yr) / determinant, y: (xx * yr - xy * xr) / determinant)
            // The weights are the inverse variances of the residuals, so the inverse of the
            // weighted normal matrix is the estimate's covariance.
            standardError = ((yy / determinant).squareRoot(), (xx / determinant).squareRoot())
            offset = (offset.x - step.x, offset.y - step.y)
            // A shift this far from the search's whole-pixel start went astray.
            guard abs(offset.x - Double(start.x)) <= 1.5, abs(offset.y - Double(start.y)) <= 1.5 else { return nil }
            let stepLength = (step.x * step.x + step.y * step.y).squareRoot()
            if stepLength < Self.convergence {
                // Converged with the tolerance of the start: once more with the final one,
                // which leaves out points moving by more than a fraction of a pixel.
                guard uncertainty > Self.finalUncertainty else { break }
                uncertainty = Self.finalUncertainty
            }
        }
        return (offset, standardError, noise)
    }

    /// How badly the tracking points fit with no motion at all and with `offset`: the sum of
    /// Tukey's loss over the points, each residual against the final tolerance.
    private mutating func losses(
        stillAnd offset: (x: Double, y: Double), current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout,
        noise: Double
    ) -> (still: Double, moved: Double) {
        let whole = (x: Int(offset.x.rounded()), y: Int(offset.y.rounded()))
        computeResiduals(
            current: current, earlier: earlier, layout: layout, whole: whole,
            fraction: (offset.x - Double(whole.x), offset.y - Double(whole.y)))
        swap(&residuals, &comparedResiduals)
        computeResiduals(current: current, earlier: earlier, layout: layout, whole: (0, 0), fraction: (0, 0))
        var movedLoss = 0.0, stillLoss = 0.0
        for (index, point) in points.points.enumerated() {
            let moved = comparedResiduals[index], still = residuals[index]
            guard !moved.isNaN, !still.isNaN else { continue }
            let limit = 4.685 * noise + point.gradientLength * Self.finalUncertainty
            movedLoss += Self.tukeyLoss(moved / limit)
            stillLoss += Self.tukeyLoss(still / limit)
        }
        return (stillLoss, movedLoss)
    }

    /// How much less loss a fitted motion must leave than no motion to be believed: fitting two
    /// numbers to noise lowers the loss by about 2 / 7.3 (Tukey's loss is about r² / (7.3 σ²)
    /// for small residuals, with its limit at 4.685 σ), and by this much only once in a
    /// thousand times (χ² with two degrees of freedom beyond 13.8).
    static let fittedLossAllowance = 13.8 / 7.3

    /// Tukey's biweight loss of a residual `u` limits wide: 1 − (1 − u²)³ within, 1 beyond.
    private static func tukeyLoss(_ u: Double) -> Double {
        guard abs(u) < 1 else { return 1 }
        let inside = 1 - u * u
        return 1 - inside * inside * inside
    }

    /// Fills `residuals` with E(p + whole + fraction / 2) − C(p − fraction / 2) for each point p,
    /// where `whole` is a whole-pixel offset and `fraction` the rest of the offset; nan where
    /// either place leaves the frame.
    ///
    /// Both frames are read at the same distance from a pixel, so that both are blended at the
    /// same fraction: the error of bilinear blending (a quarter of a pixel's curvature at most,
    /// ten grey levels on a sharp edge, as much as a tenth of a pixel's shift) is then the same
    /// in both and cancels, where reading only the earlier frame would leave it in every
    /// residual and bias the estimate on sharp edges. The current frame is read within a pixel
    /// of the point, where its gradient was measured.
    private mutating func computeResiduals(
        current: Span<UInt8>, earlier: Span<UInt8>, layout: PlaneLayout, whole: (x: Int, y: Int),
        fraction: (x: Double, y: Double)
    ) {
        residuals.removeAll(keepingCapacity: true)
        if fraction == (0, 0) {
            // A whole-pixel offset, as every fit starts from: both places are pixels, and the
            // current frame's are the points' own values.
            for point in points.points {
                let x = point.column + whole.x, y = point.row + whole.y
                let inside = x >= 0 && y >= 0 && x < layout.width && y < layout.height
                residuals.append(inside ? Double(earlier[y * layout.bytesPerRow + x]) - Double(point.level) : .nan)
            }
            return
        }
        let forward = EarlierFrameSampling(
            CameraMotion(dx: -Double(whole.x) - fraction.x / 2, dy: -Double(whole.y) - fraction.y / 2))
        let backward = EarlierFrameSampling(CameraMotion(dx: fraction.x / 2, dy: fraction.y / 2))
        let columns = forward.columns(width: layout.width).clamped(to: backward.columns(width: layout.width))
        let rows = forward.rows(height: layout.height).clamped(to: backward.rows(height: layout.height))
        for point in points.points {
            guard columns.contains(point.column), rows.contains(point.row) else {
                residuals.append(.nan)
                continue
            }
            let then = forward.interpolated(column: point.column, row: point.row, earlier: earlier, layout: layout)
            let now = backward.interpolated(column: point.column, row: point.row, earlier: current, layout: layout)
            residuals.append(then - now)
        }
    }

    /// The residuals' spread as a standard deviation, from their median absolute value (robust
    /// to the points on moving objects), but not below one grey level.
    private mutating func robustScale() -> Double {
        for bin in residualHistogram.indices { residualHistogram[bin] = 0 }
        var count = 0
        for residual in residuals where !residual.isNaN {
            let bin = min(residualHistogram.count - 1, Int(abs(residual) / Self.residualBinWidth))
            residualHistogram[bin] += 1
            count += 1
        }
        var below = 0, median = Double(residualHistogram.count) * Self.residualBinWidth
        for (bin, binCount) in residualHistogram.enumerated() where binCount > 0 {
            if 2 * (below + binCount) >= count {
                median = (Double(bin) + 0.5) * Self.residualBinWidth
                break
            }
            below += binCount
        }
        return max(1, 1.4826 * median)
    }

    /// The whole-pixel offset within `radius` of `centre` (or of `other`) with the least sum of
    /// absolute differences between `current` and `earlier`, or nil when the frames are too
    /// small to compare with that margin. Ties go to the first tried: the centre, ring by ring
    /// outwards, then around `other`.
    private static func bestOffset(
        of current: ReducedFrame, in earlier: ReducedFrame, around centre: (x: Int, y: Int),
        alsoAround other: (x: Int, y: Int)? = nil, radius: Int, margin: Int
    ) -> (x: Int, y: Int)? {
        guard let layout = current.layout, earlier.layout == layout,
            layout.width - 2 * margin >= leastComparedWidth, layout.height - 2 * margin >= leastComparedHeight
        else { return nil }
        var best: (x: Int, y: Int)?, bestCost = Int.max
        func consider(_ offset: (x: Int, y: Int)) {
            guard abs(offset.x) <= margin && abs(offset.y) <= margin else { return }
            let cost = current.sumOfCappedDifferences(to: earlier, offset: offset, margin: margin, cap: Self.differenceCap)
            if cost < bestCost {
                best = offset
                bestCost = cost
            }
        }
        forEachOffset(around: centre, alsoAround: other, radius: radius, consider)
        return best
    }

    /// Calls `body` with each whole-pixel offset within `radius` of `centre`, ring by ring
    /// outwards, then with those within `radius` of `other` that are not within reach of
    /// `centre` (each offset once).
    private static func forEachOffset(
        around centre: (x: Int, y: Int), alsoAround other: (x: Int, y: Int)?, radius: Int,
        _ body: ((x: Int, y: Int)) -> Void
    ) {
        forEachOffset(around: centre, radius: radius, body)
        guard let other else { return }
        forEachOffset(around: other, radius: radius) { offset in
            if max(abs(offset.x - centre.x), abs(offset.y - centre.y)) > radius { body(offset) }
        }
    }

    /// Calls `body` with each whole-pixel offset within `radius` of `centre` (a square), ring by
    /// ring outwards.
    private static func forEachOffset(around centre: (x: Int, y: Int), radius: Int, _ body: ((x: Int, y: Int)) -> Void) {
        for ring in 0...radius {
            for dy in -ring...ring {
                for dx in -ring...ring where max(abs(dx), abs(dy)) == ring {
                    body((centre.x + dx, centre.y + dy))
                }
            }
        }
    }
}
