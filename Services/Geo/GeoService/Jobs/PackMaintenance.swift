import Foundation
import PlatformKit
import ServiceKit

/// The pack job: the hour-before expiry warning and the flush of expired packs, one step at a chosen instant
/// (``GeoJobs/maintainPacks(now:)``; tests pass the manual clock's).
public struct PackMaintenance: Sendable {
    let database: any GeoStore
    let notices: any NoticeSink
    /// Posts deleted per transaction: small enough that a waiting request's write is never held up long.
    public static let sweepBatch = 100

    /// What one run did.
    public struct Report: Sendable, Equatable {
        /// Packs whose members were told they expire within the hour.
        public var warnedPacks: Int
        public var flushedPacks: Int
        public var flushedPosts: Int

        public init(warnedPacks: Int, flushedPacks: Int, flushedPosts: Int) {
            self.warnedPacks = warnedPacks
            self.flushedPacks = flushedPacks
            self.flushedPosts = flushedPosts
        }
    }

    /// Warns members of packs expiring within the hour, then flushes every expired pack with its posts, comments
    /// and votes, and the expired posts of official packs, batch by batch.
    @discardableResult
    public func run(now: Date) async throws -> Report {
        var report = Report(warnedPacks: 0, flushedPacks: 0, flushedPosts: 0)
        while true {
            let warnings = try await database.claimExpiryWarnings(now: now)
            if warnings.isEmpty { break }
            for warning in warnings {
                await notices.publish(Self.notice(warning))
            }
            report.warnedPacks += warnings.count
        }
        while true {
            let step = try await database.sweepExpiredStep(now: now, batch: Self.sweepBatch)
            if step.isEmpty { break }
            report.flushedPosts += step.posts
            report.flushedPacks += step.packs
            // Lets requests waiting for the database's writer go first.
            await Task.yield()
        }
        while true {
            let posts = try await database.sweepExpiredOfficialPostsStep(now: now, batch: Self.sweepBatch)
            if posts == 0 { break }
            report.flushedPosts += posts
            await Task.yield()
        }
        return report
    }

    static func notice(_ warning: ExpiryWarning) -> Notice {
        let id = warning.pack.id ?? 0
        let end = Int(warning.pack.expiresAt?.timeIntervalSince1970 ?? 0)
        return Notice(
            recipients: warning.members, kind: "geo.pack_expiring",
            text: "The pack \(warning.pack.name) expires within the hour.",
            link: GeoPaths.packs + "/\(id)", idempotencyKey: "pack-expiring:\(id):\(end)")
    }
}
