import Foundation

/// The ffmpeg command line, quiet unless it fails.
public enum FFmpeg {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
