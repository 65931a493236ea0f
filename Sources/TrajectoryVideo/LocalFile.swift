#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a local path names, links followed: the one look at the file system that reading
/// (is this input a pipe?) and writing (would this output replace a device, or the input?)
/// both decide by.
public struct LocalFile: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case regular, directory
        /// A device, a named pipe or a socket: read or written in place, and perhaps only once.
        case special
    }

    public let kind: Kind
    /// Bytes, for a regular file.
    public let size: Int
    /// The file itself, whatever path reaches it.
    public let device: UInt64
    public let inode: UInt64

    /// Nil when nothing is at `path` (or a link there leads nowhere).
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .special
        }
        size = Int(status.st_size)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
