import TrajectoryEvaluation

/// Everything about one synthetic clip: frame geometry, backdrop, camera, sensor, balls in
/// flight and other actors. A value: the catalogue builds one per (scene, seed), and
/// `SceneRenderer` turns it into frames and ground truth.
public struct SceneScript: Sendable {
    public var name: String
    public var seed: UInt64
    public var width: Int
    public var height: Int
    public var frameRate: Double
    public var frameCount: Int
    /// Acceleration of free fall in this scene, pixels per second squared (down the frame).
    public var gravity: Double
    public var backdrop: Backdrop
    public var camera: CameraShake
    public var sensor: Sensor
    /// The balls in flight: the truth's flights come from these.
    public var balls: [ThrownBall]
    /// Distractors and occluders, painted in this order (those in front of the balls after
    /// the balls).
    public var actors: [any SceneActor]

    public init(
        name: String, seed: UInt64, width: Int, height: Int, frameRate: Double, frameCount: Int,
        gravity: Double, backdrop: Backdrop, camera: CameraShake = .steady, sensor: Sensor = Sensor(),
        balls: [ThrownBall] = [], actors: [any SceneActor] = []
    ) {
        precondition(width > 0 && height > 0 && frameRate > 0 && frameCount > 0)
        self.name = name
        self.seed = seed
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.gravity = gravity
        self.backdrop = backdrop
        self.camera = camera
        self.sensor = sensor
        self.balls = balls
        self.actors = actors
    }

    /// Seconds from the first frame's time to just after the last frame's.
    public var duration: Double { Double(frameCount) / frameRate }

    /// Presentation time of frame `index`: frames are evenly spaced from time 0.
    public func time(ofFrame index: Int) -> Double { Double(index) / frameRate }

    /// Frame `index`'s time and exposure.
    public func moment(ofFrame index: Int) -> FrameMoment {
        FrameMoment(index: index, time: time(ofFrame: index), exposure: sensor.shutterFraction / frameRate)
    }

    /// What really happens in this scene: the flights of its balls as a correct detector
    /// should report them, and its distractors. Cheap: no pixel is rendered.
    public func groundTruth() -> GroundTruth {
        TruthBuilder(script: self).groundTruth()
    }
}
