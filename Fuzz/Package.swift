// swift-tools-version: 6.0
import PackageDescription

// The libFuzzer target over decode + detect + track, kept out of the main package: a fuzz
// target has no `main` (libFuzzer brings its own) and only links with `-sanitize=fuzzer`, so it
// would break a plain `swift build` there. Build and run it with `Scripts/fuzz` from the
// repository's root; see README.md.
let package = Package(
    name: "trajectories-fuzz",
    dependencies: [
        // Named, so that the products resolve whatever folder the repository was cloned into.
        .package(name: "trajectories", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzerEntry"),
        .executableTarget(
            name: "FuzzDecodeDetect",
            dependencies: [
                "CFuzzerEntry",
                .product(name: "TrajectoryKit", package: "trajectories"),
                .product(name: "TrajectoryVideo", package: "trajectories"),
            ]
        ),
    ]
)
