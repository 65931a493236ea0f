import Foundation
import TrajectoryVideo

/// Refuses, before anything is read, a run whose outputs would overwrite its input video or
/// each other: `detect clip.mp4 -o clip.mp4` would replace the video with its results, and
/// `--overlay clip.mp4` would write over the video while it is read.
enum FileClash {
    /// - Parameters:
    ///   - input: the video, as given on the command line.
    ///   - outputs: each file the run writes, with the flag that named it.
    static func check(input: String, outputs: [(flag: String, path: String)]) throws {
        let video = VideoReader.localPath(of: input).flatMap(FileIdentity.init(path:))
        var claimed: [(flag: String, file: FileIdentity)] = []
        for (flag, path) in outputs {
            guard let file = FileIdentity(path: path) else { continue }
            if file == video {
                throw CommandFailure("\(flag) '\(path)' is the input video: writing it would destroy the video")
            }
            if let earlier = claimed.first(where: { $0.file == file }) {
                throw CommandFailure("\(earlier.flag) and \(flag) both name '\(path)': give each its own file")
            }
            claimed.append((flag, file))
        }
    }
}

/// What makes two paths one file: its device and inode when it exists, else its absolute path
/// with links resolved.
enum FileIdentity: Equatable {
    case existing(device: UInt64, inode: UInt64)
    case new(path: String)

    /// Nil for standard output (`-`) and for what is not a regular file: a device such as
    /// `/dev/null` or a named pipe may take any number of writers.
    init?(path: String) {
        guard path != "-" else { return nil }
        if let file = LocalFile(path: path) {
            guard file.kind == .regular else { return nil }
            self = .existing(device: file.device, inode: file.inode)
        } else {
            self = .new(path: URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path)
        }
    }
}
