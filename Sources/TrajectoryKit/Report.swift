import struct Foundation.UUID

/// The `trajectories detect` JSON document, schemaVersion 1.
///
/// Keys are stable: adding a key is allowed, renaming or removing one (or changing a meaning)
/// bumps `schemaVersion`. `Schemas/trajectories.schema.json` describes the same shape and the
/// tests check real output against it.
public struct TrajectoryReport: Sendable, Hashable, Codable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var source: SourceDescription
    public var request: RequestDescription
    public var trajectories: [Trajectory]
    /// Problems met on the way that did not stop the run (a truncated file, a corrupt packet).
    public var warnings: [String]

    public init(
        source: SourceDescription, request: RequestDescription, trajectories: [Trajectory],
        warnings: [String] = []
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.source = source
        self.request = request
        self.trajectories = trajectories
        self.warnings = warnings
    }

    /// The video the trajectories were found in. `width`/`height` are as displayed
    /// (after the stream's rotation).
    public struct SourceDescription: Sendable, Hashable, Codable {
        public var uri: String
        public var width: Int
        public var height: Int
        public var frameRate: Double
        /// Frames decoded.
        public var frameCount: Int
        public var duration: Double
        /// Display rotation applied, in degrees clockwise (0, 90, 180, 270).
        public var rotation: Int

        public init(uri: String, width: Int, height: Int, frameRate: Double, frameCount: Int, duration: Double, rotation: Int) {
            self.uri = uri
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.frameCount = frameCount
            self.duration = duration
            self.rotation = rotation
        }
    }

    /// The request's settings, so a result file says how it was made.
    public struct RequestDescription: Sendable, Hashable, Codable {
        public var trajectoryLength: Int
        public var frameAnalysisSpacing: Double
        public var objectMinimumNormalizedRadius: Double
        public var objectMaximumNormalizedRadius: Double
        public var regionOfInterest: NormalizedRect
        /// `normalized` (Vision's, the default) or `pixels` (top-left origin, y down).
        public var coordinates: CoordinateSpace

        public init(
            trajectoryLength: Int, frameAnalysisSpacing: Double, objectMinimumNormalizedRadius: Double,
            objectMaximumNormalizedRadius: Double, regionOfInterest: NormalizedRect,
            coordinates: CoordinateSpace = .normalized
        ) {
            self.trajectoryLength = trajectoryLength
            self.frameAnalysisSpacing = frameAnalysisSpacing
            self.objectMinimumNormalizedRadius = objectMinimumNormalizedRadius
            self.objectMaximumNormalizedRadius = objectMaximumNormalizedRadius
            self.regionOfInterest = regionOfInterest
            self.coordinates = coordinates
        }
    }

    /// One trajectory: its whole life in `points`, the rest as in its last observation.
    public struct Trajectory: Sendable, Hashable, Codable {
        public var uuid: UUID
        public var timeRange: TimeRange
        public var points: [Point]
        public var detectedPoints: [XY]
        public var projectedPoints: [XY]
        public var equationCoefficients: EquationCoefficients
        public var confidence: Double
        public var movingAverageRadius: Double

        public init(
            uuid: UUID, timeRange: TimeRange, points: [Point], detectedPoints: [XY], projectedPoints: [XY],
            equationCoefficients: EquationCoefficients, confidence: Double, movingAverageRadius: Double
        ) {
            self.uuid = uuid
            self.timeRange = timeRange
            self.points = points
            self.detectedPoints = detectedPoints
            self.projectedPoints = projectedPoints
            self.equationCoefficients = equationCoefficients
            self.confidence = confidence
            self.movingAverageRadius = movingAverageRadius
        }
    }

    public struct Point: Sendable, Hashable, Codable {
        public var frame: Int
        public var time: Double
        public var x: Double
        public var y: Double
        /// Radius in the report's coordinates: ÷ width when normalized, pixels otherwise.
        public var radius: Double

        public init(frame: Int, time: Double, x: Double, y: Double, radius: Double) {
            self.frame = frame
            self.time = time
            self.x = x
            self.y = y
            self.radius = radius
        }
    }

    public struct XY: Sendable, Hashable, Codable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }
}

/// How positions are written in a report.
public enum CoordinateSpace: String, Sendable, Hashable, Codable, CaseIterable {
    /// Vision's: [0, 1] of the full frame, origin bottom left, y up; radius ÷ width.
    case normalized
    /// Pixels of the displayed frame, origin top left, y down; radius in pixels.
    case pixels
}

/// One line of `--format jsonl`: the observations made on one analysed frame.
public struct FrameReport: Sendable, Hashable, Codable {
    public var frame: Int
    public var time: Double
    public var observations: [Observation]

    public init(frame: Int, time: Double, observations: [Observation]) {
        self.frame = frame
        self.time = time
        self.observations = observations
    }

    /// An observation as Vision reports it, plus the points this trajectory gained since the
    /// previous line that mentioned it (all of them on its first line), so that a consumer of
    /// the stream can rebuild every point without the whole history on each line.
    public struct Observation: Sendable, Hashable, Codable {
        public var uuid: UUID
        public var timeRange: TimeRange
        public var newPoints: [TrajectoryReport.Point]
        public var detectedPoints: [TrajectoryReport.XY]
        public var projectedPoints: [TrajectoryReport.XY]
        public var equationCoefficients: EquationCoefficients
        public var confidence: Double
        public var movingAverageRadius: Double

        public init(
            uuid: UUID, timeRange: TimeRange, newPoints: [TrajectoryReport.Point],
            detectedPoints: [TrajectoryReport.XY], projectedPoints: [TrajectoryReport.XY],
            equationCoefficients: EquationCoefficients, confidence: Double, movingAverageRadius: Double
        ) {
            self.uuid = uuid
            self.timeRange = timeRange
            self.newPoints = newPoints
            self.detectedPoints = detectedPoints
            self.projectedPoints = projectedPoints
            self.equationCoefficients = equationCoefficients
            self.confidence = confidence
            self.movingAverageRadius = movingAverageRadius
        }
    }
}
