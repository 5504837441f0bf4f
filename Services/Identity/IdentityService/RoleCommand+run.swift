import Foundation
import Logging
import ServiceKit

extension RoleCommand {
    /// Runs the `roles` command in `arguments` (the executable's, its name first) against the database the environment
    /// configures, printing its one line (a refusal to standard error); returns the exit status, or nil when the
    /// arguments are no `roles` command and the service should start.
    public static func runIfAsked(_ arguments: [String]) async -> Int32? {
        do {
            guard let command = try RoleCommand(arguments: Array(arguments.dropFirst())) else { return nil }
            print(try await command.run(IdentityConfiguration(reader: ServiceSettings.environmentReader())))
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return error is RoleCommandError ? 2 : 1
        }
    }

    /// Runs the command on the database `configuration` names (identity's own, opened beside the running service:
    /// SQLite's WAL lets two processes share it; with `DATABASE_URL`, the PostgreSQL database every replica uses)
    /// and returns the line to print. Sessions a revocation ends are reported where the service reports ended
    /// sessions (the notifications service forgets their devices); the gateway and the services learn them from the
    /// revocation feed on their next poll, and on PostgreSQL identity's replicas at once (their follower).
    public func run(_ configuration: IdentityConfiguration) async throws -> String {
        let database = try await openIdentityStore(
            configuration.settings.database, logger: Logger(label: "identity.roles"))
        return try await withRunning(database) { try await run(on: database, configuration) }
    }

    private func run(on database: any IdentityStore, _ configuration: IdentityConfiguration) async throws -> String {
        let now = configuration.settings.clock.now
        switch self {
        case .grant(let role, let user):
            return try await database.grant(role: role, to: user, now: now).line
        case .revoke(let role, let user):
            let revocation = try await database.revoke(role: role, from: user, now: now)
            await configuration.endedSessionReporter(logger: Logger(label: "identity.roles"))
                .sessionsEnded(userID: revocation.userID, sessionIDs: revocation.endedSessions)
            return revocation.outcome.line
        case .list(let user):
            return try await database.roleHolders(named: user).line
        }
    }
}

/// Runs `body` while `store`'s services (a PostgreSQL pool) run, and stops them after.
private func withRunning<T: Sendable>(_ store: any IdentityStore, _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for service in store.services { group.addTask { try await service.run() } }
        defer { group.cancelAll() }
        return try await body()
    }
}
