import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing and verification, always on NIO's blocking thread pool: a cost-12 hash takes a
/// quarter of a second of CPU, which would stall every request sharing the event loop.
struct PasswordHasher: Sendable {
    let cost: UInt8

    func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends the time of one verification when there is no account, so a login for an unknown user
    /// takes as long as one with a wrong password (a hash at the same cost costs the same).
    func spendVerificationTime(_ password: String) async throws {
        let cost = cost
        _ = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }
}
