import Foundation
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The identity service's storage, whichever database keeps it: SQLite (``SQLiteIdentityStore``, one machine) or
/// PostgreSQL (``PostgresIdentityStore``, any number of replicas). Each method is one transaction; domain types in
/// and out, so controllers, jobs and the roles command never know which one runs.
protocol IdentityStore: ServiceStore {
    // MARK: Users

    /// Inserts a new user; a taken username or e-mail is ``IdentityError/usernameTaken(_:)`` or
    /// ``IdentityError/emailTaken``.
    func createUser(_ user: UserRecord, verification: (token: EmailVerificationTokenRecord, mail: MailMessage)?)
        async throws
    func user(id: String) async throws -> UserRecord?
    /// The user an e-mail address or username designates.
    func user(identifier: String) async throws -> UserRecord?
    func users(ids: [String]) async throws -> [UserRecord]
    /// Applies a profile change; a username already taken is ``IdentityError/usernameTaken(_:)``.
    func updateUser(id: String, now: Date, _ change: @Sendable @escaping (inout UserRecord) -> Void) async throws
        -> UserRecord
    /// Users with a username, other than `viewer`, whose username or display name contains `text` (already
    /// lower-cased): exact matches first, then those starting with it, then the rest, each by username;
    /// after `cursor`, at most `limit`, each with its rank for the next cursor.
    func directory(matching text: String, viewer: String, after cursor: DirectoryCursor?, limit: Int) async throws
        -> [(user: UserRecord, rank: Int)]
    /// Users with a username, other than `viewer`, by username after `username`, at most `limit`: the directory to
    /// browse without a query.
    func directory(viewer: String, after username: String?, limit: Int) async throws -> [UserRecord]

    // MARK: Avatars (kept apart from users so user lookups never load image bytes)

    func setAvatar(_ avatar: AvatarRecord, now: Date) async throws
    /// Removes the picture; `false` when there was none.
    func deleteAvatar(userID: String, now: Date) async throws -> Bool
    func avatar(userID: String) async throws -> AvatarRecord?

    // MARK: OpenID Connect accounts

    /// The account an issuer vouched for: the one linked to its subject, else the one with its e-mail (linked
    /// now, when ``ExternalIdentity/mayLink(toAccountWithVerifiedEmail:)`` allows), else a new one, which then
    /// chooses a username.
    func account(for identity: ExternalIdentity, now: Date) async throws -> UserRecord
    /// Every external identity linked to the user.
    func externalIdentities(userID: String) async throws -> [ExternalIdentityRecord]
    /// Links an issuer's account to a signed-in user, unless another account holds it.
    func linkIdentity(_ identity: ExternalIdentityRecord) async throws -> LinkOutcome
    /// Removes the user's identities at `issuers`, unless that would leave no way to sign in.
    func unlinkIdentities(userID: String, issuers: [String]) async throws -> UnlinkOutcome

    // MARK: Mailed codes

    /// The hash of the reset token whose code was mailed to `email`, if `code` is it. Only the newest token's code
    /// counts; a wrong one is counted, and at `MailCode.maximumTries` the token is spent.
    func resetTokenHash(email: String, code: String, now: Date) async throws -> String?
    /// The hash of the verification token whose code was mailed to `email`, if `code` is it (as
    /// ``resetTokenHash(email:code:now:)``).
    func verificationTokenHash(email: String, code: String, now: Date) async throws -> String?

    // MARK: OpenID nonces (hashed, deleted when used or expired)

    /// Stores an issued nonce's hash, and deletes the expired ones so the table holds only live nonces.
    func storeNonce(_ nonce: OIDCNonce, now: Date) async throws
    /// Uses up the nonce with this hash: `true` if it was issued, unused and unexpired at `now`; two requests (or
    /// two replicas) racing with the same nonce cannot both use it.
    func consumeNonce(hash: String, now: Date) async throws -> Bool
    /// Deletes the nonces expired by `now`; returns how many.
    func pruneNonces(now: Date) async throws -> Int

    // MARK: Outbox (mail waiting for delivery)

    func enqueue(_ mail: MailMessage, now: Date) async throws
    /// The messages due at `now`, oldest first, at most `limit` (for tests and support; delivery claims them).
    func dueEmails(now: Date, limit: Int) async throws -> [OutboxEmailRecord]
    /// Claims up to `limit` messages due at `now`, oldest first, for one delivery loop: each one's next attempt
    /// moves to `now + lease`, so no other loop (another replica's) sends it meanwhile; ``markSent(emailID:now:)`` or
    /// ``markFailed(emailID:error:retryAt:)`` then settles it, and a loop that died leaves it due again after the
    /// lease.
    func claimDueEmails(now: Date, limit: Int, lease: TimeInterval) async throws -> [OutboxEmailRecord]
    func markSent(emailID: Int64, now: Date) async throws
    func markFailed(emailID: Int64, error: String, retryAt: Date) async throws
    /// Every queued message, sent or not, oldest first (for tests and support).
    func outboxEmails() async throws -> [OutboxEmailRecord]

    // MARK: Passwords

    /// Sets a new password hash, revokes the user's other sessions and queues the "password changed" mail;
    /// returns the revoked sessions' ids.
    func changePassword(userID: String, hash: String, keepingSession: String?, notice: MailMessage?, now: Date)
        async throws -> [String]
    /// Stores a reset token's hash and queues the mail that carries the token.
    func createResetToken(_ token: PasswordResetTokenRecord, mail: MailMessage) async throws
    /// Uses a reset token: if it is still unused and unexpired, sets the password, marks every reset token
    /// of the user used, revokes all sessions and queues the notice; returns the revoked sessions' ids. `nil` if
    /// the token is not valid (unknown, used and expired look the same to the caller).
    func resetPassword(tokenHash: String, userID: String, passwordHash: String, notice: MailMessage?, now: Date)
        async throws -> [String]?
    /// The user a reset token belongs to, if the token is still usable.
    func userForResetToken(tokenHash: String, now: Date) async throws -> UserRecord?

    // MARK: Ended sessions, published for the revocation feed

    /// Revocations after `sequence` in order (at most `limit`), or with `sequence` nil every one still in force.
    func revocations(after sequence: Int64?, now: Date, limit: Int) async throws -> SessionRevocationPage
    /// What tells this process of revocations another process recorded (another replica, the roles command):
    /// a service calling `onRecorded` after each of their commits, or `nil` when no other process writes
    /// (SQLite: one machine; the roles command's revocations reach the feed's readers on their next read).
    func revocationWatcher(_ onRecorded: @escaping @Sendable () async -> Void) -> (any Service)?

    // MARK: Roles (changed only by the operator's command)

    /// Adds `role` to the user named `name` (a username, e-mail address or id).
    func grant(role: String, to name: String, now: Date) async throws -> RoleCommandOutcome
    /// Removes `role` from the user named `name` and, in the same transaction, ends every session of theirs (published
    /// on the revocation feed), since an access token already issued carries the role until it expires.
    func revoke(role: String, from name: String, now: Date) async throws -> RoleRevocation
    /// The roles of the user named `name`, or, with `name` nil, every user who holds a role.
    func roleHolders(named name: String?) async throws -> RoleCommandOutcome

    // MARK: Sessions and their refresh tokens

    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws
    /// Rotates a refresh token, or detects its reuse (RefreshPolicy decides which), or ends its session when it is
    /// past `lifetime` (measured from the sign-in and from the latest rotation).
    ///
    /// `chain` holds the hashes of the presented token's successors (each derived from the one before, see
    /// ``RefreshTokenChain``). A first use stores `chain[0]`; a reuse within the grace window walks the chain to
    /// the successor not yet rotated and hands that out again, so the racing client joins the one live chain
    /// instead of starting a second. Any other unrotated token of the session is retired, keeping one chain.
    func rotate(refreshTokenHash: String, chain: [String], lifetime: SessionLifetime, now: Date) async throws
        -> RefreshOutcome
    /// The hashes of the session's refresh tokens not yet rotated (one, unless the chain forked).
    func liveRefreshTokenHashes(sessionID: String) async throws -> [String]
    /// Revokes one of the user's sessions; `false` if the user has no such active session.
    func revokeSession(id: String, userID: String, reason: String, now: Date) async throws -> Bool
    /// Revokes every active session of the user except `keeping`; returns the revoked sessions' ids.
    func revokeSessions(userID: String, keeping: String?, reason: String, now: Date) async throws -> [String]
    /// The user's sessions neither ended nor past `lifetime` at `now`, most recently used first.
    func activeSessions(userID: String, lifetime: SessionLifetime, now: Date) async throws -> [SessionRecord]
    /// Ends up to `limit` sessions past `lifetime` at `now`, publishing them on the revocation feed; returns their ids
    /// by user.
    func endExpiredSessions(lifetime: SessionLifetime, now: Date, limit: Int) async throws -> [String: [String]]
    /// Deletes up to `limit` sessions that ended before `endedBefore`, with their refresh tokens; returns how many.
    func deleteEndedSessions(endedBefore: Date, limit: Int) async throws -> Int

    // MARK: E-mail verification

    /// Stores a verification token's hash and queues the mail that carries the token.
    func createVerificationToken(_ token: EmailVerificationTokenRecord, mail: MailMessage) async throws
    /// Uses a verification token: if it is unused, unexpired and was sent to the user's current address (or is an
    /// e-mail change, see `changesEmail`), marks that address the user's and verified, and every verification token
    /// of the user used. A change also tells the old address. `nil` if the token is not valid, or the new address
    /// was taken by another account meanwhile.
    func verifyEmail(tokenHash: String, now: Date) async throws -> UserRecord?
    /// Whether a verification token could still be used (unused, unexpired, for the user's current address).
    func verificationTokenIsUsable(tokenHash: String, now: Date) async throws -> Bool
    /// Whether `email` belongs to an account other than `userID` (the change is then refused without saying so).
    func emailBelongsToAnotherAccount(_ email: String, userID: String) async throws -> Bool
}

extension IdentityStore {
    /// Inserts a new user without a verification mail.
    func createUser(_ user: UserRecord) async throws {
        try await createUser(user, verification: nil)
    }
}

/// Where a directory page ends: the last user's match rank and username.
struct DirectoryCursor: Codable, Sendable {
    var rank: Int
    var username: String
}

/// What presenting a refresh token led to.
enum RefreshOutcome: Sendable {
    /// Valid: the chain moved on; the token to hand out is `chain[index]` (see `IdentityStore.rotate`).
    case rotated(UserRecord, SessionRecord, index: Int)
    /// Unknown, or its session was revoked or ended.
    case invalid
    /// Already rotated outside the grace window: the session has now been revoked.
    case reused(userID: String, sessionID: String)
    /// The session is past its ``SessionLifetime``; `endedNow` when this call ended it (else the expiry job had).
    case expired(userID: String, sessionID: String, endedNow: Bool)
}

/// What linking an identity from settings led to.
enum LinkOutcome: Sendable, Equatable {
    case linked
    case alreadyLinked
    case linkedToAnotherAccount
}

/// What unlinking a provider led to.
enum UnlinkOutcome: Sendable, Equatable {
    case unlinked
    case notLinked
    /// It is the only way left to sign in (no password, no other provider).
    case lastSignInMethod
}

/// What revoking a role did: the outcome to print, and the sessions it ended (to report as other ended sessions).
struct RoleRevocation: Sendable {
    var outcome: RoleCommandOutcome
    var userID: String
    var endedSessions: [String]

    /// Nothing done: `user` does not hold `role`.
    static func notHeld(_ role: String, by user: UserRecord) -> RoleRevocation {
        RoleRevocation(
            outcome: .revoked(role: role, user: user.operatorName, endedSessions: 0, wasHeld: false), userID: user.id,
            endedSessions: [])
    }
}

/// Why a session past its lifetime was ended (`revoke_reason`); a refresh token of such a session answers
/// ``RefreshOutcome/expired(userID:sessionID:endedNow:)``.
let expiredSessionReason = "expired"

extension UserRecord {
    /// How the operator's command names the user: `alice (id)`, or the e-mail address or nothing before the id.
    var operatorName: String {
        "\(username ?? email ?? "user") (\(id))"
    }

    /// Adds `role` (the roles kept sorted); `false` when the user already holds it. Refused past
    /// `RoleCommand.maximumRoles`.
    mutating func grant(_ role: String, now: Date) throws -> Bool {
        var roles = roleList
        guard !roles.contains(role) else { return false }
        guard roles.count < RoleCommand.maximumRoles else { throw RoleCommandError.tooManyRoles(operatorName) }
        roles.append(role)
        self.roles = roles.sorted().joined(separator: ",")
        updatedAt = now
        return true
    }

    /// Removes `role`; `false` when the user does not hold it.
    mutating func revoke(_ role: String, now: Date) -> Bool {
        guard roleList.contains(role) else { return false }
        roles = roleList.filter { $0 != role }.joined(separator: ",")
        updatedAt = now
        return true
    }
}
