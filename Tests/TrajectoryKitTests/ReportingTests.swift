import Foundation
import Testing
import TrajectoryKit

@Suite struct ReportingTests {
    static let equation = EquationCoefficients(a: 15.57386, b: -2.638611, c: 0.8618334)

    static func observation(uuid: UUID, pointCount: Int, start: Double = 0, startX: Double = 0.1) -> TrajectoryObservation {
        let points = (0..<pointCount).map { index in
            let x = startX + 0.01 * Double(index)
            return TrajectoryPoint(
                frame: index, time: start + Double(index) / 30,
                location: NormalizedPoint(x: x, y: equation.evaluate(at: x)), radius: 0.005)
        }
        let detected = points.suffix(10).map(\.location)
        return TrajectoryObservation(
            uuid: uuid,
            timeRange: TimeRange(start: points[0].time, duration: points[pointCount - 1].time - points[0].time),
            detectedPoints: detected,
            projectedPoints: detected.suffix(5).map { NormalizedPoint(x: $0.x, y: equation.evaluate(at: $0.x)) },
            equationCoefficients: equation, confidence: 0.9, movingAverageRadius: 0.005, points: points)
    }

    @Test("in pixel coordinates the rewritten equation passes through the same points", arguments: [
        (1280, 720), (1920, 1080), (720, 1280),
    ])
    func pixelEquation(width: Int, height: Int) {
        let formatter = ReportFormatter(coordinates: .pixels, frameWidth: width, frameHeight: height)
        let pixelEquation = formatter.equation(Self.equation)
        for x in stride(from: 0.05, through: 0.3, by: 0.05) {
            let normalized = NormalizedPoint(x: x, y: Self.equation.evaluate(at: x))
            let pixel = normalized.pixels(width: width, height: height)
            #expect(abs(pixelEquation.evaluate(at: pixel.x) - pixel.y) < 1e-9 * Double(height))
        }
    }

    @Test("pixel reports put the origin at the top left and give the radius in pixels")
    func pixelPoints() {
        let formatter = ReportFormatter(coordinates: .pixels, frameWidth: 1280, frameHeight: 720)
        let point = formatter.point(TrajectoryPoint(
            frame: 3, time: 0.1, location: NormalizedPoint(x: 0.25, y: 0.75), radius: 0.01))
        #expect(point == TrajectoryReport.Point(frame: 3, time: 0.1, x: 320, y: 180, radius: 12.8))
    }

    @Test("JSON Lines carry every point exactly once across successive lines")
    func newPointsAreNotRepeated() throws {
        let formatter = ReportFormatter(coordinates: .normalized, frameWidth: 1280, frameHeight: 720)
        var builder = FrameReportBuilder(formatter: formatter)
        let uuid = UUID()
        var written: [Int] = []
        for count in 10...14 {
            let report = builder.report(
                frame: FrameStamp(index: count - 1, time: Double(count - 1) / 30),
                observations: [Self.observation(uuid: uuid, pointCount: count)])
            let line = try #require(report)
            written += line.observations[0].newPoints.map(\.frame)
        }
        #expect(written == Array(0..<14))
        #expect(builder.report(frame: FrameStamp(index: 20, time: 0.7), observations: []) == nil)
    }

    @Test("the collector keeps each trajectory's latest observation, ordered by start time")
    func collectorKeepsLatest() {
        let early = UUID(), late = UUID()
        var collector = TrajectoryCollector()
        collector.add([Self.observation(uuid: late, pointCount: 10, start: 2)])
        collector.add([Self.observation(uuid: early, pointCount: 10, start: 1)])
        collector.add([Self.observation(uuid: late, pointCount: 12, start: 2)])
        let formatter = ReportFormatter(coordinates: .normalized, frameWidth: 1280, frameHeight: 720)
        let trajectories = collector.trajectories(formattedBy: formatter)
        #expect(trajectories.map(\.uuid) == [early, late])
        #expect(trajectories[1].points.count == 12)
    }

    /// Two uuids in both orders, so that a test of an order that falls back on uuids fails one of the two.
    static let uuidsBothWays: [(UUID, UUID)] = {
        let low = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        let high = UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000001")!
        return [(low, high), (high, low)]
    }()

    @Test("trajectories that start together are listed left to right, whatever their random uuids")
    func collectorOrdersTiesByPlace() {
        for (leftUUID, rightUUID) in Self.uuidsBothWays {
            var collector = TrajectoryCollector()
            collector.add([
                Self.observation(uuid: rightUUID, pointCount: 10, start: 1, startX: 0.6),
                Self.observation(uuid: leftUUID, pointCount: 10, start: 1, startX: 0.2),
            ])
            let formatter = ReportFormatter(coordinates: .normalized, frameWidth: 1280, frameHeight: 720)
            #expect(collector.trajectories(formattedBy: formatter).map(\.uuid) == [leftUUID, rightUUID])
        }
    }

    @Test("trajectories that start at the same point are listed in the order they were first reported")
    func collectorOrdersFullTiesByFirstReport() {
        for (firstUUID, secondUUID) in Self.uuidsBothWays {
            var collector = TrajectoryCollector()
            collector.add([Self.observation(uuid: firstUUID, pointCount: 10, start: 1)])
            collector.add([Self.observation(uuid: secondUUID, pointCount: 10, start: 1)])
            // A later observation of the first trajectory keeps its place.
            collector.add([Self.observation(uuid: firstUUID, pointCount: 11, start: 1)])
            let formatter = ReportFormatter(coordinates: .normalized, frameWidth: 1280, frameHeight: 720)
            #expect(collector.trajectories(formattedBy: formatter).map(\.uuid) == [firstUUID, secondUUID])
        }
    }
}
