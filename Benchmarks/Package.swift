// swift-tools-version: 6.1
import PackageDescription

// Benchmarks of the trajectories package, kept out of it so that its users never build
// package-benchmark. Run from this folder:
//   swift package --allow-writing-to-package-directory benchmark
// One folder per suite under Benchmarks/; see README.md for what each measures.

/// A package-benchmark suite: an executable in `Benchmarks/<name>` that the benchmark plugin finds.
func suite(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: dependencies + [
            "SampleFrames",
            .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let trajectoryKit = Target.Dependency.product(name: "TrajectoryKit", package: "trajectories")
let trajectoryVideo = Target.Dependency.product(name: "TrajectoryVideo", package: "trajectories")
let trajectorySynth = Target.Dependency.product(name: "TrajectorySynth", package: "trajectories")

let package = Package(
    name: "trajectories-benchmarks",
    dependencies: [
        // Named, so that the products resolve whatever folder the repository was cloned into.
        .package(name: "trajectories", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The clips the suites run on, decoded (or, for a busy scene, rendered) into memory
        // before the timed loop.
        .target(
            name: "SampleFrames",
            dependencies: [trajectoryKit, trajectoryVideo, trajectorySynth, .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/SampleFrames"
        ),
        suite("Detector", [trajectoryKit]),
        suite("Request", [trajectoryKit]),
        suite("Tracker", [trajectoryKit]),
        suite("Decode", [trajectoryVideo]),
        suite("Pipeline", [trajectoryKit, trajectoryVideo]),
    ]
)
