import Foundation
import ServiceKit
import ServiceLifecycle
import Testing

/// The two databases a service's store keeps its data in; store tests run against both
/// (`@Test(arguments: StoreKind.allCases)`).
public enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// A fresh, empty database of this kind: a SQLite file in a temporary folder, or a new database on the process's
    /// ``ThrowawayPostgres``.
    public func freshLocation() async throws -> DatabaseLocation {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return .file(folder.appendingPathComponent("store.sqlite").path)
        case .postgres:
            return .postgres(try await ThrowawayPostgres.freshDatabase())
        }
    }

    public var testDescription: String { rawValue }
}

/// Runs `body` while `store`'s own services (a PostgreSQL pool, its listeners) run, and stops them after.
public func withRunning<T: Sendable>(_ store: any ServiceStore, _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for service in store.services { group.addTask { try await service.run() } }
        defer { group.cancelAll() }
        return try await body()
    }
}
