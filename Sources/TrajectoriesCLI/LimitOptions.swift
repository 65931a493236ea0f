import ArgumentParser
import TrajectoryKit
import TrajectoryVideo

/// The flags that bound what one run may cost, so a damaged, hostile or pathological input
/// ends with a clear message or a warning instead of exhausting memory or stalling a batch.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-frame-pixels"), help: "Largest frame to analyse, in pixels (width × height); larger videos are refused.")
    var maximumFramePixels = VideoTrajectoryDetection.defaultMaximumFramePixels

    @Option(name: .customLong("max-blobs"), help: "Moving blobs kept per frame; beyond it the largest are kept, with a warning.")
    var maximumBlobsPerFrame = ResourceLimits().maximumBlobsPerFrame

    @Option(name: .customLong("max-tracks"), help: "Tracks alive at once; beyond it no new track starts, with a warning.")
    var maximumLiveTracks = ResourceLimits().maximumLiveTracks

    @Option(name: .customLong("network-timeout"), help: "Seconds a network stream may send nothing before the run ends.")
    var networkTimeout = VideoReader.defaultNetworkTimeout

    func validate() throws {
        guard maximumFramePixels >= 1 else {
            throw ValidationError("--max-frame-pixels must be at least 1 (got \(maximumFramePixels)).")
        }
        for (flag, value) in [("--max-blobs", maximumBlobsPerFrame), ("--max-tracks", maximumLiveTracks)] {
            guard ResourceLimits.allowedRange.contains(value) else {
                throw ValidationError("\(flag) must be in \(ResourceLimits.allowedRange) (got \(value)).")
            }
        }
        guard networkTimeout.isFinite, networkTimeout > 0 else {
            throw ValidationError("--network-timeout must be a positive number of seconds (got \(networkTimeout)).")
        }
    }

    /// The per-frame limits, for the request.
    var resourceLimits: ResourceLimits {
        ResourceLimits(maximumBlobsPerFrame: maximumBlobsPerFrame, maximumLiveTracks: maximumLiveTracks)
    }
}
