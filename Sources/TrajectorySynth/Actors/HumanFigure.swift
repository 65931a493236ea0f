/// A person drawn from capsules (torso, limbs) and discs (head, hands): enough of a body to
/// move like one, which is what a motion detector sees.
public struct HumanFigure: Sendable, Hashable {
    /// From the soles to the top of the head, pixels.
    public var height: Double
    public var skinLevel: Float
    public var shirtLevel: Float
    public var trousersLevel: Float
    /// +1 facing right, −1 facing left.
    public var facing: Double

    public init(height: Double, skinLevel: Float, shirtLevel: Float, trousersLevel: Float, facing: Double) {
        self.height = height
        self.skinLevel = skinLevel
        self.shirtLevel = shirtLevel
        self.trousersLevel = trousersLevel
        self.facing = facing < 0 ? -1 : 1
    }

    /// Angles of one limb in radians: `upper` from straight down (positive swings
    /// forward), `bend` at the knee or elbow (positive bends the lower part back for a leg,
    /// forward for an arm).
    public struct Limb: Sendable, Hashable {
        public var upper: Double
        public var bend: Double

        public init(upper: Double, bend: Double) {
            self.upper = upper
            self.bend = bend
        }
    }

    /// A posture: where the feet stand and how the limbs are held.
    public struct Pose: Sendable, Hashable {
        /// Scene x of the pelvis.
        public var x: Double
        /// Scene y of the ground under the figure.
        public var groundY: Double
        public var nearLeg: Limb
        public var farLeg: Limb
        public var nearArm: Limb
        public var farArm: Limb
        /// Forward lean of the torso, radians.
        public var lean: Double

        public init(x: Double, groundY: Double, nearLeg: Limb, farLeg: Limb, nearArm: Limb, farArm: Limb, lean: Double = 0) {
            self.x = x
            self.groundY = groundY
            self.nearLeg = nearLeg
            self.farLeg = farLeg
            self.nearArm = nearArm
            self.farArm = farArm
            self.lean = lean
        }
    }

    // Body proportions as fractions of the height.
    private var thigh: Double { 0.245 * height }
    private var shin: Double { 0.25 * height }
    private var torso: Double { 0.3 * height }
    private var upperArm: Double { 0.17 * height }
    private var forearm: Double { 0.155 * height }
    private var headRadius: Double { 0.062 * height }

    /// A direction at `angle` from straight down, forward being the way the figure faces.
    private func direction(_ angle: Double) -> SIMD2<Double> {
        SIMD2(facing * PortableMath.sin(angle), PortableMath.cos(angle))
    }

    /// Height of the pelvis above the ground: the lower foot touches it, so the body bobs
    /// as the legs swing.
    private func hipHeight(_ pose: Pose) -> Double {
        func reach(_ leg: Limb) -> Double {
            thigh * PortableMath.cos(leg.upper) + shin * PortableMath.cos(leg.upper - leg.bend)
        }
        return max(reach(pose.nearLeg), reach(pose.farLeg)) + 0.02 * height
    }

    /// Where the near hand is in `pose` (to put a ball in it).
    public func nearHand(_ pose: Pose) -> SIMD2<Double> {
        let shoulder = shoulderPoint(pose)
        let elbow = shoulder + upperArm * direction(pose.nearArm.upper)
        return elbow + forearm * direction(pose.nearArm.upper + pose.nearArm.bend)
    }

    private func shoulderPoint(_ pose: Pose) -> SIMD2<Double> {
        let hip = SIMD2(pose.x, pose.groundY - hipHeight(pose))
        return hip + torso * SIMD2(facing * PortableMath.sin(pose.lean), -PortableMath.cos(pose.lean))
    }

    /// The scene rectangle the figure can occupy (for deciding when it is on screen).
    public func horizontalReach(_ pose: Pose) -> ClosedRange<Double> {
        (pose.x - 0.45 * height)...(pose.x + 0.45 * height)
    }

    /// Paints the figure: far limbs first and darker, then torso, near limbs and head.
    /// With `nearHand`, the near arm reaches for that point instead of following the pose
    /// (elbow placed by two-link inverse kinematics, bending downwards).
    public func draw(_ pose: Pose, on canvas: inout Canvas, nearHand: SIMD2<Double>? = nil) {
        let hip = SIMD2(pose.x, pose.groundY - hipHeight(pose))
        let shoulder = shoulderPoint(pose)
        let shade: Float = 0.78
        drawLeg(pose.farLeg, from: hip, level: trousersLevel * shade, shoe: 35 * shade, on: &canvas)
        drawArm(pose.farArm, from: shoulder, sleeve: shirtLevel * shade, hand: skinLevel * shade, on: &canvas)
        canvas.fillCapsule(from: hip, to: shoulder + SIMD2(0, 0.03 * height), radius: 0.085 * height, level: shirtLevel)
        drawLeg(pose.nearLeg, from: hip, level: trousersLevel, shoe: 35, on: &canvas)
        let neck = shoulder + SIMD2(facing * 0.01 * height, -0.035 * height)
        canvas.fillCapsule(from: shoulder, to: neck, radius: 0.025 * height, level: skinLevel * 0.9)
        canvas.fillDisc(center: neck + SIMD2(facing * 0.012 * height, -headRadius * 0.95), radius: headRadius, level: skinLevel)
        // Hair on the back and top of the head.
        canvas.fillDisc(
            center: neck + SIMD2(-facing * 0.012 * height, -headRadius * 1.25), radius: headRadius * 0.8,
            level: skinLevel * 0.35)
        if let nearHand {
            let elbow = elbowReaching(from: shoulder, to: nearHand)
            canvas.fillCapsule(from: shoulder, to: elbow, radius: 0.032 * height, level: shirtLevel)
            canvas.fillCapsule(from: elbow, to: nearHand, radius: 0.026 * height, level: skinLevel)
            canvas.fillDisc(center: nearHand, radius: 0.03 * height, level: skinLevel)
        } else {
            drawArm(pose.nearArm, from: shoulder, sleeve: shirtLevel, hand: skinLevel, on: &canvas)
        }
    }

    /// Where the elbow is when the hand is at `hand`: the intersection of two circles
    /// (upper arm round the shoulder, forearm round the hand) below the shoulder–hand line.
    /// Out of reach, the arm points straight at the target.
    func elbowReaching(from shoulder: SIMD2<Double>, to hand: SIMD2<Double>) -> SIMD2<Double> {
        let reach = hand - shoulder
        let length = (reach * reach).sum().squareRoot()
        let d = max(abs(upperArm - forearm) + 1e-6, min(upperArm + forearm - 1e-6, length))
        let along = length > 0 ? reach / length : SIMD2(0, 1)
        let a = (upperArm * upperArm - forearm * forearm + d * d) / (2 * d)
        let h = max(0, upperArm * upperArm - a * a).squareRoot()
        var across = SIMD2(-along.y, along.x)
        if across.y < 0 { across = -across }
        return shoulder + a * along + h * across
    }

    /// The near shoulder's position in `pose`.
    public func nearShoulder(_ pose: Pose) -> SIMD2<Double> {
        shoulderPoint(pose)
    }

    private func drawLeg(_ leg: Limb, from hip: SIMD2<Double>, level: Float, shoe: Float, on canvas: inout Canvas) {
        let knee = hip + thigh * direction(leg.upper)
        let ankle = knee + shin * direction(leg.upper - leg.bend)
        canvas.fillCapsule(from: hip, to: knee, radius: 0.048 * height, level: level)
        canvas.fillCapsule(from: knee, to: ankle, radius: 0.036 * height, level: level)
        canvas.fillCapsule(from: ankle, to: ankle + SIMD2(facing * 0.06 * height, 0.01 * height), radius: 0.022 * height, level: shoe)
    }

    private func drawArm(_ arm: Limb, from shoulder: SIMD2<Double>, sleeve: Float, hand: Float, on canvas: inout Canvas) {
        let elbow = shoulder + upperArm * direction(arm.upper)
        let wrist = elbow + forearm * direction(arm.upper + arm.bend)
        canvas.fillCapsule(from: shoulder, to: elbow, radius: 0.032 * height, level: sleeve)
        canvas.fillCapsule(from: elbow, to: wrist, radius: 0.026 * height, level: hand)
        canvas.fillDisc(center: wrist + 0.02 * height * direction(arm.upper + arm.bend), radius: 0.028 * height, level: hand)
    }
}
