import Foundation
import Testing
import TrajectoryEvaluation
import TestSupport

/// `trajectories synth` and `evaluate`, run as a user measures the tool on generated clips and
/// on hand-labelled footage.
@Suite struct SynthEvaluateCommandTests {
    @Test("synth writes a clip and its truth; detect then evaluate scores it")
    func synthDetectEvaluate() throws {
        let folder = try TestFolder.fresh()
        let synth = try CommandLineRunner.run(["synth", "--scene", "clean", "--seed", "2", "--out", folder.path])
        #expect(synth.status == 0)
        let clip = folder.appendingPathComponent("clean-2.mp4"), truth = folder.appendingPathComponent("clean-2.truth.json")
        let result = folder.appendingPathComponent("clean-2.json")
        #expect(try CommandLineRunner.run(["detect", clip.path, "--output", result.path]).status == 0)

        let table = try CommandLineRunner.run(["evaluate", result.path, "--truth", truth.path])
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("recall") && table.standardOutput.contains("total"))

        let json = try CommandLineRunner.run(["evaluate", result.path, "--truth", truth.path, "--format", "json"])
        let evaluation = try JSONDecoder().decode(FlightEvaluation.self, from: Data(json.standardOutput.utf8))
        #expect(evaluation.total.metrics.recall == 1)
        #expect(evaluation.total.counts.falseTrajectories == 0)
        #expect(table.standardError.isEmpty && json.standardError.isEmpty)

        // The truth of another clip of the same size but another length is still scored, with a
        // warning that says so.
        let other = CommandLineRunner.repositoryRoot.appendingPathComponent("SampleClips/clean-1.truth.json")
        let mismatched = try CommandLineRunner.run(["evaluate", result.path, "--truth", other.path])
        #expect(mismatched.status == 0)
        #expect(mismatched.errorLines.count == 1 && mismatched.standardError.contains("describes a clip of 105: are both of the same video?"),
                "\(mismatched.errorLines)")
    }

    @Test("synth --frame-rate 240 renders a scene as slow motion, which detect analyses one frame in 8 and finds whole")
    func slowMotionScene() throws {
        let folder = try TestFolder.fresh()
        let synth = try CommandLineRunner.run(["synth", "--scene", "clean", "--seed", "2", "--frame-rate", "240", "--out", folder.path])
        #expect(synth.status == 0, "\(synth.errorLines)")
        let clip = folder.appendingPathComponent("clean-2.mp4"), truthFile = folder.appendingPathComponent("clean-2.truth.json")
        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: truthFile))
        // The scene lasts 2.5 to 4 s, whatever the rate.
        #expect(truth.frameRate == 240 && (600...960).contains(truth.frameCount), "\(truth.frameRate) fps, \(truth.frameCount) frames")

        let result = folder.appendingPathComponent("clean-2.json")
        let detect = try CommandLineRunner.run(["detect", clip.path, "--output", result.path])
        #expect(detect.status == 0 && detect.standardError.contains("one frame in 8"), "\(detect.errorLines)")
        let json = try CommandLineRunner.run(["evaluate", result.path, "--truth", truthFile.path, "--format", "json"])
        let evaluation = try JSONDecoder().decode(FlightEvaluation.self, from: Data(json.standardOutput.utf8))
        #expect(evaluation.total.counts.flights >= 1)
        #expect(evaluation.total.metrics.recall == 1)
        #expect(evaluation.total.counts.falseTrajectories == 0)
    }

    @Test("evaluate scores against TrackNet-style labels made from the truth")
    func trackNetLabels() throws {
        let folder = try TestFolder.fresh()
        let sample = CommandLineRunner.repositoryRoot.appendingPathComponent("SampleClips")
        let truth = try JSONDecoder().decode(
            GroundTruth.self, from: Data(contentsOf: sample.appendingPathComponent("walkers-1.truth.json")))
        // One label per frame: the visible ball's centre, or none.
        var csv = "Frame,Visibility,X,Y\n"
        for frame in 0..<truth.frameCount {
            let point = truth.flights.flatMap(\.points).first { $0.frame == frame && $0.visible }
            csv += point.map { "\(frame),1,\($0.x),\($0.y)\n" } ?? "\(frame),0,0,0\n"
        }
        let labels = folder.appendingPathComponent("labels.csv")
        try csv.write(to: labels, atomically: true, encoding: .utf8)
        let result = folder.appendingPathComponent("walkers-1.json")
        #expect(try CommandLineRunner.run(["detect", sample.appendingPathComponent("walkers-1.mp4").path, "-o", result.path]).status == 0)

        let outcome = try CommandLineRunner.run(["evaluate", result.path, "--labels", labels.path, "--format", "json"])
        #expect(outcome.status == 0)
        let evaluation = try JSONDecoder().decode(PointEvaluation.self, from: Data(outcome.standardOutput.utf8))
        #expect(evaluation.total.metrics.precision > 0.95)
        #expect(evaluation.total.metrics.recall > 0.75)
        #expect(outcome.standardError.isEmpty)

        // Labels beyond the result's frames: another video's, most likely; scored, with a warning.
        try (csv + "500,1,10,10\n").write(to: labels, atomically: true, encoding: .utf8)
        let beyond = try CommandLineRunner.run(["evaluate", result.path, "--labels", labels.path])
        #expect(beyond.status == 0)
        #expect(beyond.errorLines.count == 1 && beyond.standardError.contains("labels frames up to 500, but"), "\(beyond.errorLines)")
    }

    @Test("usage errors exit 64 and say what is wrong", arguments: [
        (["synth", "--scene", "nowhere", "--out", "/tmp/x"], "nowhere"),
        (["synth", "--scene", "clean"], "--out"),
        (["synth", "--scene", "clean", "--seed", "one", "--out", "/tmp/x"], "--seed"),
        (["synth", "--scene", "clean", "--frame-rate", "0", "--out", "/tmp/x"], "--frame-rate"),
        (["evaluate", "a.json"], "--truth"),
        (["evaluate", "a.json", "b.json", "--truth", "a.truth.json"], "--truth"),
        (["evaluate", "a.json", "--truth", "t.json", "--labels", "l.csv"], "--labels"),
    ])
    func usageErrors(arguments: [String], mention: String) throws {
        let outcome = try CommandLineRunner.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains(mention))
    }

    @Test("a result file that is not a detect report exits 1 naming it")
    func malformedResult() throws {
        let folder = try TestFolder.fresh()
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"schemaVersion": 1}"#.utf8).write(to: bad)
        let truth = CommandLineRunner.repositoryRoot.appendingPathComponent("SampleClips/clean-1.truth.json")
        let outcome = try CommandLineRunner.run(["evaluate", bad.path, "--truth", truth.path])
        #expect(outcome.status == 1)
        #expect(outcome.errorLines.count == 1 && outcome.standardError.contains(bad.path))
    }

    @Test("synth --list names every scene")
    func list() throws {
        let outcome = try CommandLineRunner.run(["synth", "--list"])
        #expect(outcome.status == 0)
        for scene in ["clean", "walkers", "bounce", "shake", "hd60", "no-ball-walkers"] {
            #expect(outcome.standardOutput.contains(scene))
        }
    }
}
