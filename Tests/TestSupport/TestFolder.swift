import Foundation

/// Fresh folders for tests' files. All of a test process's folders lie in one folder of its
/// own, removed when the process exits, whether its tests passed or failed: no test has to
/// remember to clean up, and generated media never lands in the repository.
public enum TestFolder {
    /// A fresh, empty folder.
    public static func fresh() throws -> URL {
        let folder = processFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static let processFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trajectories-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: TestFolder.processFolder) }
        return folder
    }()
}
