import Foundation

/// Where results go: standard output, or a file named with `--output`.
///
/// A file is checked when the destination is made, before any video is read, so a bad path
/// fails at once rather than after minutes of decoding. A document is written to a temporary
/// file and renamed into place, so a failed run never leaves half a JSON document behind.
struct OutputDestination {
    private let path: String?
    private var lineHandle: FileHandle?

    /// Standard output.
    static let standardOutput = try! OutputDestination(path: nil)

    /// - Parameter path: a file path, or nil (or "-") for standard output.
    init(path: String?) throws {
        self.path = path == "-" ? nil : path
        guard let path = self.path else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("cannot write '\(path)': it is a directory")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw CommandFailure("cannot write '\(path)': folder '\(folder)' does not exist or is not writable")
        }
    }

    /// Writes one whole document.
    func writeDocument(_ data: Data) throws {
        guard let path else {
            try FileHandle.standardOutput.write(contentsOf: data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure("cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    /// Writes one line and hands it on at once (no buffering), so a reader following a
    /// stream sees each line as it is produced.
    mutating func writeLine(_ data: Data) throws {
        var line = data
        line.append(UInt8(ascii: "\n"))
        guard let path else {
            try FileHandle.standardOutput.write(contentsOf: line)
            return
        }
        if lineHandle == nil {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                  let handle = FileHandle(forWritingAtPath: path)
            else { throw CommandFailure("cannot write '\(path)'") }
            lineHandle = handle
        }
        try lineHandle?.write(contentsOf: line)
    }

    /// Makes sure a line-by-line file exists even when no line was written (an empty result
    /// is still a result).
    mutating func finishLines() throws {
        if let path, lineHandle == nil {
            guard FileManager.default.createFile(atPath: path, contents: Data()) else {
                throw CommandFailure("cannot write '\(path)'")
            }
        }
        try lineHandle?.close()
        lineHandle = nil
    }
}
