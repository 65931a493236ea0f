/// What really happened in a generated clip: written by `TrajectorySynth` beside each clip
/// (`<clip>.truth.json`) and read by the scorer.
///
/// A *flight* is one stretch of free flight that a correct detector reports as one trajectory:
/// from launch (or entering the frame) to a bounce, a catch, or leaving the frame. A bounce
/// therefore ends one flight and starts another, as it starts a new uuid in Vision.
/// Positions are pixels of the displayed frame, top-left origin (see `PixelPoint`): the
/// ball's centre at the frame's presentation time, the middle of its exposure.
public struct GroundTruth: Sendable, Hashable, Codable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// The scene's name and seed, so the clip can be made again.
    public var scene: String
    public var seed: UInt64
    public var width: Int
    public var height: Int
    public var frameRate: Double
    public var frameCount: Int
    public var flights: [Flight]
    /// Moving things that are not balls in flight, named so a reader of a false trajectory
    /// can tell what it latched onto. Informational: the scorer does not need them.
    public var distractors: [Distractor]

    public init(
        scene: String, seed: UInt64, width: Int, height: Int, frameRate: Double, frameCount: Int,
        flights: [Flight], distractors: [Distractor]
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.scene = scene
        self.seed = seed
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.flights = flights
        self.distractors = distractors
    }

    public struct Flight: Sendable, Hashable, Codable {
        public var id: Int
        /// The ball's radius in pixels.
        public var radius: Double
        /// One point per frame from the flight's first frame to its last, in frame order.
        public var points: [Point]

        public init(id: Int, radius: Double, points: [Point]) {
            self.id = id
            self.radius = radius
            self.points = points
        }
    }

    public struct Point: Sendable, Hashable, Codable {
        public var frame: Int
        public var time: Double
        public var x: Double
        public var y: Double
        /// False while the ball is hidden (occluded, or mostly outside the frame): no detector
        /// can be asked to find it there, and the scorer does not count it as missed.
        public var visible: Bool

        public init(frame: Int, time: Double, x: Double, y: Double, visible: Bool = true) {
            self.frame = frame
            self.time = time
            self.x = x
            self.y = y
            self.visible = visible
        }
    }

    public struct Distractor: Sendable, Hashable, Codable {
        /// e.g. "walker", "circular", "blinker", "carried-ball", "foliage".
        public var kind: String
        public var firstFrame: Int
        public var lastFrame: Int

        public init(kind: String, firstFrame: Int, lastFrame: Int) {
            self.kind = kind
            self.firstFrame = firstFrame
            self.lastFrame = lastFrame
        }
    }
}
