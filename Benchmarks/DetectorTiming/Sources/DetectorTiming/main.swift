// Usage: DetectorTiming FILE WIDTH HEIGHT [--passes N] [--print]
//
// FILE holds raw 8-bit grey frames of WIDTH × HEIGHT back to back
// (`ffmpeg -i clip.mp4 -f rawvideo -pix_fmt gray FILE`). Every pass runs a fresh detector over
// all frames; the per-frame times of all passes are summarised. `--print` lists the blobs of
// the first pass, frame by frame.
import Foundation
import TrajectoryKit

struct Options {
    var path: String
    var width: Int
    var height: Int
    var passes = 5
    var printBlobs = false

    init(_ arguments: [String]) {
        guard arguments.count >= 3, let width = Int(arguments[1]), let height = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: DetectorTiming FILE WIDTH HEIGHT [--passes N] [--print]\n".utf8))
            exit(64)
        }
        path = arguments[0]
        self.width = width
        self.height = height
        var rest = arguments.dropFirst(3).makeIterator()
        while let flag = rest.next() {
            switch flag {
            case "--passes": passes = rest.next().flatMap(Int.init) ?? passes
            case "--print": printBlobs = true
            default: break
            }
        }
    }
}

func describe(_ blob: Blob) -> String {
    String(
        format: "(%.1f, %.1f) r %.2f area %d contrast %.1f elong %.2f solid %.2f",
        blob.center.x, blob.center.y, blob.radius, blob.area, blob.contrast, blob.elongation, blob.solidity)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard let data = FileManager.default.contents(atPath: options.path) else {
    FileHandle.standardError.write(Data("cannot read \(options.path)\n".utf8))
    exit(1)
}
let bytes = [UInt8](data)
let layout = PlaneLayout(width: options.width, height: options.height, bytesPerRow: options.width)
let frameSize = options.width * options.height
let frameCount = bytes.count / frameSize

/// Per-frame times of `passes` runs of `work` over every frame; on a shared machine the
/// fastest pass of each frame is the one least disturbed by other work.
struct FrameTimes {
    private var fastest: [Double]
    private var all: [Double] = []

    init(frameCount: Int) { fastest = [Double](repeating: .infinity, count: frameCount) }

    mutating func record(frame: Int, _ duration: Duration) {
        let ms = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        fastest[frame] = min(fastest[frame], ms)
        all.append(ms)
    }

    var summary: String {
        let best = fastest.filter(\.isFinite).sorted(), every = all.sorted()
        return String(
            format: "best-of-passes median %.3f ms, p95 %.3f ms; all runs median %.3f ms",
            best[best.count / 2], best[best.count * 95 / 100], every[every.count / 2])
    }
}

func run(_ options: Options, frames bytes: [UInt8], layout: PlaneLayout, frameCount: Int) {
let frameSize = layout.width * layout.height
let clock = ContinuousClock()
var detectorTimes = FrameTimes(frameCount: frameCount)
var smoothingTimes = FrameTimes(frameCount: frameCount)
var differencingTimes = FrameTimes(frameCount: frameCount)
var blobsFound = 0
var smoother = BinomialSmoother()
var smoothed = [UInt8](repeating: 0, count: frameSize)
var motion = [UInt8](repeating: 0, count: frameSize)
for pass in 0..<options.passes {
    var detector = BlobDetector()
    for frame in 0..<frameCount {
        let plane = bytes.span.extracting((frame * frameSize)..<((frame + 1) * frameSize))
        var blobs: [Blob] = []
        detectorTimes.record(frame: frame, clock.measure { blobs = detector.detect(luma: plane, layout: layout) })
        if pass == 0 {
            blobsFound += blobs.count
            if options.printBlobs {
                let thresholds = detector.lastThresholds.map {
                    "sigma \(String(format: "%.2f", $0.noiseSigma)) low \($0.low) high \($0.high)"
                } ?? "-"
                print("frame \(frame) [\(thresholds)]: " + blobs.map(describe).joined(separator: "; "))
            }
        }
        // The two vector kernels alone, for the breakdown.
        var smoothedSpan = smoothed.mutableSpan
        smoothingTimes.record(frame: frame, clock.measure {
            smoother.smooth(plane, layout: layout, into: &smoothedSpan, destinationBytesPerRow: options.width)
        })
        guard frame >= 3 else { continue }
        var motionSpan = motion.mutableSpan
        let all = bytes.span
        let oneBefore = all.extracting(((frame - 1) * frameSize)..<(frame * frameSize))
        let twoBefore = all.extracting(((frame - 2) * frameSize)..<((frame - 1) * frameSize))
        let threeBefore = all.extracting(((frame - 3) * frameSize)..<((frame - 2) * frameSize))
        differencingTimes.record(frame: frame, clock.measure {
            FrameDifferencing.minimumAbsoluteDifference(
                current: plane, oneBefore: oneBefore, twoBefore: twoBefore, threeBefore: threeBefore,
                layout: layout, into: &motionSpan)
        })
    }
}
print("\(options.width)x\(options.height), \(frameCount) frames × \(options.passes) passes, \(String(format: "%.2f", Double(blobsFound) / Double(frameCount))) blobs per frame")
print("  detect:        \(detectorTimes.summary)")
print("  smoothing:     \(smoothingTimes.summary)")
print("  differencing:  \(differencingTimes.summary)")
}

run(options, frames: bytes, layout: layout, frameCount: frameCount)
