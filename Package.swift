// swift-tools-version: 6.0
import PackageDescription

/// FFmpeg's four libraries, found through pkg-config. On Debian/Ubuntu a missing
/// library makes SwiftPM name the apt packages below.
let ffmpegPackages = ["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"]

let package = Package(
    name: "trajectories",
    products: [
        .executable(name: "trajectories", targets: ["TrajectoriesCLI"]),
        // Detector, tracker and the Vision-style request API. No FFmpeg: feed it frames from memory.
        .library(name: "TrajectoryKit", targets: ["TrajectoryKit"]),
        // Decoding and encoding video through FFmpeg, and running a request over a whole file.
        .library(name: "TrajectoryVideo", targets: ["TrajectoryVideo"]),
        // Drawing trajectories onto YUV pictures (lines, dots, fitted curves, a tiny font). No FFmpeg.
        .library(name: "TrajectoryDrawing", targets: ["TrajectoryDrawing"]),
        // Synthetic scenes with ground truth, and the scorer that compares results with it.
        .library(name: "TrajectorySynth", targets: ["TrajectorySynth"]),
        .library(name: "TrajectoryEvaluation", targets: ["TrajectoryEvaluation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(ffmpegPackages)]
        ),
        .target(name: "CVideoIO", dependencies: ["CFFmpeg"]),
        .target(
            name: "TrajectoryKit",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")]
        ),
        .target(name: "TrajectoryDrawing", dependencies: ["TrajectoryKit"]),
        .target(name: "TrajectoryVideo", dependencies: ["CVideoIO", "TrajectoryKit", "TrajectoryDrawing"]),
        .target(name: "TrajectoryEvaluation", dependencies: ["TrajectoryKit"]),
        .target(name: "TrajectorySynth", dependencies: ["TrajectoryKit", "TrajectoryVideo", "TrajectoryEvaluation"]),
        .executableTarget(
            name: "TrajectoriesCLI",
            dependencies: [
                "TrajectoryKit", "TrajectoryVideo", "TrajectorySynth", "TrajectoryEvaluation", "TrajectoryDrawing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TrajectoryKitTests", dependencies: ["TrajectoryKit"]),
        .testTarget(name: "TrajectoryDrawingTests", dependencies: ["TrajectoryDrawing"]),
        // Helpers more than one test target uses: the ffmpeg command line.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "TrajectoryVideoTests",
            dependencies: ["TrajectoryVideo", "TrajectorySynth", "TrajectoryDrawing", "TestSupport", "CFFmpeg"]),
        .testTarget(name: "TrajectorySynthTests", dependencies: ["TrajectorySynth", "TrajectoryEvaluation"]),
        .testTarget(name: "TrajectoryEvaluationTests", dependencies: ["TrajectoryEvaluation"]),
        // The accuracy targets on every generated scene, end to end (takes a few minutes).
        .testTarget(
            name: "SceneSuiteTests",
            dependencies: ["TrajectoryKit", "TrajectoryVideo", "TrajectorySynth", "TrajectoryEvaluation"]),
        // Runs the built `trajectories` binary the way a user would.
        .testTarget(
            name: "TrajectoriesCLITests",
            dependencies: [
                "TrajectoryEvaluation", "TrajectoryKit", "TrajectoryVideo", "TrajectoryDrawing", "TrajectorySynth", "TestSupport",
            ]),
    ]
)
