import AsyncHTTPClient
import Foundation
import JWTKit
import Synchronization

/// Verifies platform access tokens and remembers each verified token until it expires.
///
/// An Ed25519 verification costs more than forwarding a request (docs/architecture.md, "Why the hot paths look this
/// way"), so the gateway and every service verify a token once and then answer from this cache; ``cachedUser(bearer:)``
/// is synchronous so the gateway's event-loop path needs no task hop on a hit.
///
/// It also holds the sessions that ended before their access tokens expired (identity publishes them, see
/// ``SessionRevocationFeed``): a token of such a session is refused with `session_ended`, on a cache hit too.
public final class AccessTokenVerifier: Sendable {
    private let verifySignature: @Sendable (String) async throws -> AccessTokenClaims
    private let clock: WallClock
    private let capacity: Int
    /// Verified tokens and ended sessions under one lock, so a hit costs one lock and two lookups.
    private let state = Mutex(State())
    /// Told of every session that ends from now on (see ``onSessionsEnded(_:)``).
    private let observers = Mutex<[@Sendable ([String]) -> Void]>([])

    private struct State {
        var tokens: [String: AuthenticatedUser] = [:]
        /// Ended session ids and when their last access token expires (after which they can be forgotten).
        var endedSessions: [String: Date] = [:]
    }

    /// Creates a verifier that checks signatures with the given function.
    public init(
        clock: WallClock = .system, capacity: Int = 100_000,
        verifySignature: @escaping @Sendable (String) async throws -> AccessTokenClaims
    ) {
        self.verifySignature = verifySignature
        self.clock = clock
        self.capacity = capacity
    }

    /// A verifier whose keys come from the identity service's JWKS at `jwksURL`.
    public static func remote(jwksURL: String, httpClient: HTTPClient, clock: WallClock = .system)
        -> AccessTokenVerifier
    {
        let keySet = RemoteKeySet(url: jwksURL, httpClient: httpClient, clock: clock)
        return AccessTokenVerifier(clock: clock) { token in try await keySet.verify(token, as: AccessTokenClaims.self) }
    }

    /// A verifier that trusts the keys in `keys` (the identity service verifying its own tokens).
    public static func local(keys: JWTKeyCollection, clock: WallClock = .system) -> AccessTokenVerifier {
        AccessTokenVerifier(clock: clock) { token in try await keys.verify(token, as: AccessTokenClaims.self) }
    }

    /// The user of an already verified, unexpired token, without suspending.
    public func cachedUser(token: String) -> AuthenticatedUser? {
        guard case .valid(let user) = lookup(token) else { return nil }
        return user
    }

    private enum Lookup {
        case valid(AuthenticatedUser)
        case ended
        case unknown
    }

    private func lookup(_ token: String) -> Lookup {
        let found = state.withLock { state -> (AuthenticatedUser, ended: Bool)? in
            guard let user = state.tokens[token] else { return nil }
            return (user, state.endedSessions[user.sessionID] != nil)
        }
        guard let found, found.0.expiresAt > clock.now else { return .unknown }
        return found.ended ? .ended : .valid(found.0)
    }

    /// Whether the session ended before its access tokens expired.
    public func sessionEnded(_ sessionID: String) -> Bool {
        state.withLock { $0.endedSessions[sessionID] != nil }
    }

    /// Refuses every token of these sessions from now on; `until` is when their last access token expires.
    public func endSessions(_ sessionIDs: some Sequence<String>, until: Date) {
        endSessions(sessionIDs.map { SessionRevocation(sequence: 0, sessionId: $0, until: until) })
    }

    /// Refuses every token of the revoked sessions from now on (entries already past `until` are dropped).
    public func endSessions(_ revocations: [SessionRevocation]) {
        let now = clock.now
        let newlyEnded = state.withLock { state -> [String] in
            var newlyEnded: [String] = []
            for revocation in revocations where revocation.until > now {
                let known = state.endedSessions[revocation.sessionId]
                if known == nil { newlyEnded.append(revocation.sessionId) }
                state.endedSessions[revocation.sessionId] = max(revocation.until, known ?? revocation.until)
            }
            // Ended sessions are few next to tokens; forgetting the expired ones here keeps the set small.
            if state.endedSessions.count > 1024 { state.endedSessions = state.endedSessions.filter { $0.value > now } }
            return newlyEnded
        }
        guard !newlyEnded.isEmpty else { return }
        for observer in observers.withLock({ $0 }) { observer(newlyEnded) }
    }

    /// Calls `observer` with the sessions each later revocation ends, as soon as this verifier learns of them (so
    /// what a token opened, such as a live stream, can end with its session). It must not block.
    public func onSessionsEnded(_ observer: @escaping @Sendable ([String]) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Verifies a bearer token (signature, issuer, audience, expiry) and returns who it speaks for.
    ///
    /// Throws a 401 ``Problem`` for every kind of bad token.
    public func verify(token: String) async throws -> AuthenticatedUser {
        let sessionEnded = Problem.unauthorized("session_ended", "This session has ended; sign in again.")
        switch lookup(token) {
        case .valid(let user): return user
        // Known to be ended: no signature check spent on it.
        case .ended: throw sessionEnded
        case .unknown: break
        }
        let claims: AccessTokenClaims
        do {
            claims = try await verifySignature(token)
        } catch KeySetError.unavailable {
            throw Problem.serviceUnavailable("identity")
        } catch {
            throw Problem.unauthorized("invalid_token", "The access token is malformed or its signature is not valid.")
        }
        let user = AuthenticatedUser(
            userID: claims.sub.value, sessionID: claims.sid, roles: claims.roles, expiresAt: claims.exp.value,
            needsUsername: claims.needsUsername ?? false)
        guard user.expiresAt > clock.now else {
            throw Problem.unauthorized("token_expired", "The access token has expired; refresh it.")
        }
        guard remember(token, user) else { throw sessionEnded }
        return user
    }

    /// Verifies the token in an `Authorization: Bearer …` header value.
    public func verify(authorization: String?) async throws -> AuthenticatedUser {
        guard let token = Self.bearerToken(authorization) else {
            throw Problem.unauthorized("missing_token", "Send an access token as `Authorization: Bearer <token>`.")
        }
        return try await verify(token: token)
    }

    /// The token of a `Bearer` authorization header value, if it has that form.
    ///
    /// Read byte by byte: it runs on every signed-in request (Foundation's trimming went through NSString).
    public static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let bytes = authorization.utf8
        guard bytes.count > 7 else { return nil }
        // ASCII letters compare without case (`| 0x20`); the seventh byte must be a plain space.
        guard zip(bytes.prefix(6), "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }),
            bytes.dropFirst(6).first == UInt8(ascii: " ")
        else { return nil }
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.dropFirst(7).firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(Substring(authorization.utf8[first...last]))
    }

    /// Caches a verified token unless its session ended (checked under the same lock as the insert, so a
    /// revocation arriving during the signature check is not lost); `false` if it ended.
    private func remember(_ token: String, _ user: AuthenticatedUser) -> Bool {
        let now = clock.now
        return state.withLock { state in
            guard state.endedSessions[user.sessionID] == nil else { return false }
            if state.tokens.count >= capacity {
                state.tokens = state.tokens.filter { $0.value.expiresAt > now }
                if state.tokens.count >= capacity { state.tokens.removeAll(keepingCapacity: true) }
            }
            state.tokens[token] = user
            return true
        }
    }
}
