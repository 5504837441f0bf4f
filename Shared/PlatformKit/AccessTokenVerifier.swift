import AsyncHTTPClient
import Foundation
import JWTKit
import Synchronization

/// Verifies platform access tokens and remembers each verified token until it expires.
///
/// An Ed25519 verification costs more than forwarding a request (ARCHITECTURE.md, last section), so the
/// gateway and every service verify a token once and then answer from this cache; ``cachedUser(bearer:)``
/// is synchronous so the gateway's event-loop path needs no task hop on a hit.
public final class AccessTokenVerifier: Sendable {
    private let verifySignature: @Sendable (String) async throws -> AccessTokenClaims
    private let clock: WallClock
    private let capacity: Int
    private let cache = Mutex<[String: AuthenticatedUser]>([:])

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
        guard let user = cache.withLock({ $0[token] }) else { return nil }
        return user.expiresAt > clock.now ? user : nil
    }

    /// Verifies a bearer token (signature, issuer, audience, expiry) and returns who it speaks for.
    ///
    /// Throws a 401 ``Problem`` for every kind of bad token.
    public func verify(token: String) async throws -> AuthenticatedUser {
        if let user = cachedUser(token: token) { return user }
        let claims: AccessTokenClaims
        do {
            claims = try await verifySignature(token)
        } catch {
            throw Problem.unauthorized("invalid_token", "The access token is malformed or its signature is not valid.")
        }
        let user = AuthenticatedUser(
            userID: claims.sub.value, sessionID: claims.sid, roles: claims.roles, expiresAt: claims.exp.value)
        guard user.expiresAt > clock.now else {
            throw Problem.unauthorized("token_expired", "The access token has expired; refresh it.")
        }
        remember(token, user)
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
    public static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization, authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer "
        else { return nil }
        let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    private func remember(_ token: String, _ user: AuthenticatedUser) {
        let now = clock.now
        cache.withLock { cache in
            if cache.count >= capacity {
                cache = cache.filter { $0.value.expiresAt > now }
                if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            }
            cache[token] = user
        }
    }
}
