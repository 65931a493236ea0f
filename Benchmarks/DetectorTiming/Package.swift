// swift-tools-version: 6.0
import PackageDescription

// Times `BlobDetector` on frames decoded beforehand (raw 8-bit grey), so the clock sees the
// detector only. Run it through `../detector-timing.sh`, which decodes the clips first.
let package = Package(
    name: "DetectorTiming",
    dependencies: [.package(name: "trajectories", path: "../..")],
    targets: [
        .executableTarget(
            name: "DetectorTiming",
            dependencies: [.product(name: "TrajectoryKit", package: "trajectories")]
        )
    ]
)
