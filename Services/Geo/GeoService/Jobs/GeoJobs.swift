import Foundation

/// The geo service's background work, built with its dependencies when the service is built; tests and benchmarks
/// receive it (``GeoConfiguration/jobsBuilt``) to run it at a time of their choosing.
public struct GeoJobs: Sendable {
    let packMaintenance: PackMaintenance

    /// Warns members of packs expiring within the hour, then flushes the expired packs and official posts; returns
    /// what it did.
    @discardableResult
    public func maintainPacks(now: Date) async throws -> PackMaintenance.Report {
        try await packMaintenance.run(now: now)
    }
}
