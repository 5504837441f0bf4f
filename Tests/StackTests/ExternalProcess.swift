import Foundation

/// Runs an outside judge (Python's Pillow, openapi-spec-validator) as its own process, through `/usr/bin/env` so the
/// tools `.ci/run` installs are found on `PATH`; its output goes to a file, so a long answer cannot fill a pipe.
enum ExternalProcess {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The process's standard output and error together; throws with them when it exits with a failure.
    static func run(_ arguments: [String]) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("process-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try handle.close()
        let printed = try Data(contentsOf: output)
        guard process.terminationStatus == 0 else {
            throw Failed(
                description: "\(arguments.prefix(3).joined(separator: " ")): "
                    + String(decoding: printed, as: UTF8.self).suffix(3000))
        }
        return printed
    }
}
