import ArgumentParser
import Foundation
import TrajectoryVideo

/// A runtime failure the user can act on: printed as one line on standard error, exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Messages for the user on standard error, never mixed with the results on standard output.
enum Diagnostics {
    static func warning(_ message: String) {
        write("trajectories: warning: \(message)")
    }

    /// Something the run chose that the user may want otherwise; not a problem.
    static func note(_ message: String) {
        write("trajectories: note: \(message)")
    }

    /// Says `pending`, if any, and clears it, so that it is said once.
    static func noteOnce(_ pending: inout String?) {
        guard let message = pending else { return }
        pending = nil
        note(message)
    }

    static func error(_ message: String) {
        write("trajectories: error: \(message)")
    }

    /// Runs a command's work; any error becomes one line on standard error and exit status 1.
    /// Usage errors are not seen here: ArgumentParser reports them (exit 64) before `run()`.
    static func reportingFailures(_ work: () throws -> Void) throws {
        do {
            try work()
        } catch let exit as ExitCode {
            throw exit
        } catch let error as VideoError where error.kind == .frameTooLarge {
            Self.error("\(error); --max-frame-pixels raises the limit")
            throw ExitCode.failure
        } catch {
            Self.error(String(describing: error))
            throw ExitCode.failure
        }
    }

    /// The bytes of the file at `path`; when it cannot be read, a failure naming it as `name`
    /// ("result file 'r.json'") and saying why in a few words.
    static func readFile(_ path: String, named name: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = switch LocalFile(path: path)?.kind {
            case nil: "no such file"
            case .directory: "it is a directory"
            default: "permission denied or not a readable file"
            }
            throw CommandFailure("cannot read \(name): \(reason)")
        }
    }

    /// The system's words for the POSIX error under a Foundation file error ("No such file or
    /// directory", "Is a directory"), which Foundation's own description buries in its domain
    /// and codes; else that description.
    static func systemReason(_ error: any Error) -> String {
        var current: NSError? = error as NSError
        while let nsError = current {
            if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
            current = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return error.localizedDescription
    }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// The encoders behind every JSON the tool prints: sorted keys, so output is stable.
enum JSONOutput {
    static func document<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static func line<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
