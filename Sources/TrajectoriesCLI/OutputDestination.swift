import Foundation
import Glibc
import TrajectoryVideo

/// Where results go: standard output, or a file named with `--output`.
///
/// A file is checked when the destination is made, before any video is read, so a bad path
/// fails at once rather than after minutes of decoding. A document is written to a temporary
/// file and renamed into place, so a failed run never leaves half a JSON document behind.
/// A destination that is not a regular file (`/dev/null`, a named pipe, `/dev/stdout`) is
/// written in place: renaming a file over it would replace the device or pipe itself.
struct OutputDestination {
    private let path: String?
    /// Whether `path` is written in place rather than by renaming a finished file over it.
    private let isWrittenInPlace: Bool
    private var lineHandle: FileHandle?

    /// Standard output.
    static let standardOutput = try! OutputDestination(path: nil)

    /// - Parameter path: a file path, or nil (or "-") for standard output.
    init(path: String?) throws {
        self.path = path == "-" ? nil : path
        let existing = self.path.flatMap(LocalFile.init(path:))
        isWrittenInPlace = existing?.kind == .special
        guard let path = self.path else { return }
        if existing?.kind == .directory {
            throw CommandFailure("cannot write '\(path)': it is a directory")
        }
        if isWrittenInPlace {
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw CommandFailure("cannot write '\(path)': permission denied")
            }
            return
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw CommandFailure("cannot write '\(path)': folder '\(folder)' does not exist or is not writable")
        }
    }

    /// Writes one whole document.
    func writeDocument(_ data: Data) throws {
        try reportingFailure {
            guard let path else { return try FileHandle.standardOutput.write(contentsOf: data) }
            if isWrittenInPlace {
                let handle = try Self.open(path)
                try handle.write(contentsOf: data)
                try handle.close()
            } else {
                try data.write(to: Self.target(of: path), options: .atomic)
            }
        }
    }

    /// Writes one line and hands it on at once (no buffering), so a reader following a
    /// stream sees each line as it is produced.
    mutating func writeLine(_ data: Data) throws {
        var line = data
        line.append(UInt8(ascii: "\n"))
        guard let path else {
            try reportingFailure { try FileHandle.standardOutput.write(contentsOf: line) }
            return
        }
        try reportingFailure {
            if lineHandle == nil { lineHandle = try Self.open(path) }
            try lineHandle?.write(contentsOf: line)
        }
    }

    /// Makes sure a line-by-line file exists even when no line was written (an empty result
    /// is still a result).
    mutating func finishLines() throws {
        try reportingFailure {
            if let path, lineHandle == nil { lineHandle = try Self.open(path) }
            try lineHandle?.close()
        }
        lineHandle = nil
    }

    /// Where a document for `path` goes: through symbolic links, so that a link stays a link
    /// and its target is written, even a target not made yet.
    private static func target(of path: String) -> URL {
        var url = URL(fileURLWithPath: path)
        for _ in 0..<32 {  // as many links as the kernel follows
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
            url = URL(fileURLWithPath: destination, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        return url
    }

    /// Opens `path` for writing, made or emptied first when it is a regular file; a device or
    /// named pipe is opened as it is. (`FileManager.createFile` would rename a new file over it.)
    private static func open(_ path: String) throws -> FileHandle {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Runs `write`, turning what it throws into one line that names the destination and gives
    /// the system's reason (`No space left on device`), which Foundation's own description of
    /// the error buries in a dump of its domain and codes.
    private func reportingFailure(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch {
            let destination = path.map { "'\($0)'" } ?? "the results to standard output"
            throw CommandFailure("cannot write \(destination): \(Diagnostics.systemReason(error))")
        }
    }
}
