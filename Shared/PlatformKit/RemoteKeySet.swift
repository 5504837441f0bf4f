import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// A JSON Web Key Set fetched over HTTP and cached: the identity service's keys for the gateway and the
/// services, or an OpenID Connect issuer's keys for the identity service.
///
/// Keys are refreshed when the cache expires (the issuer's `Cache-Control: max-age`, else `defaultLifetime`)
/// and when a token names a key id the set does not hold, at most once per `minimumRefreshInterval` so a
/// stream of forged `kid`s cannot make us hammer the issuer. A failed fetch is ``KeySetError/unavailable``,
/// never a bad signature: the issuer being slow says nothing about the token, and a client told its token
/// is invalid signs its user out. After a failure the next request may try again a second later.
public actor RemoteKeySet {
    private let url: String
    private let httpClient: HTTPClient
    private let clock: WallClock
    private let defaultLifetime: TimeInterval
    private let minimumRefreshInterval: TimeInterval
    private var keys = JWTKeyCollection()
    private var expiresAt: Date = .distantPast
    private var lastAttempt: Date = .distantPast
    private var lastAttemptFailed = false
    private var inFlight: Task<Void, any Error>?

    /// Creates a key set that reads `url` with `httpClient`.
    public init(
        url: String, httpClient: HTTPClient, clock: WallClock = .system,
        defaultLifetime: TimeInterval = 3600, minimumRefreshInterval: TimeInterval = 10
    ) {
        self.url = url
        self.httpClient = httpClient
        self.clock = clock
        self.defaultLifetime = defaultLifetime
        self.minimumRefreshInterval = minimumRefreshInterval
    }

    /// Verifies the token's signature with the current keys and decodes its payload.
    public func verify<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async throws -> Payload {
        if clock.now >= expiresAt { try await refreshIfAllowed() }
        do {
            return try await keys.verify(token, as: Payload.self)
        } catch let error as JWTError where error.errorType == .unknownKID || error.errorType == .noKeyProvided {
            guard try await refreshIfAllowed() else { throw error }
            return try await keys.verify(token, as: Payload.self)
        }
    }

    /// Fetches the keys unless that was tried less than `minimumRefreshInterval` ago; callers arriving
    /// while a fetch is under way wait for that fetch (which stores the keys) instead of failing on the
    /// old keys.
    @discardableResult
    private func refreshIfAllowed() async throws -> Bool {
        if let inFlight {
            try await inFlight.value
            return true
        }
        let now = clock.now
        let interval = lastAttemptFailed ? min(1, minimumRefreshInterval) : minimumRefreshInterval
        guard now.timeIntervalSince(lastAttempt) >= interval else {
            if lastAttemptFailed && !hasKeys { throw KeySetError.unavailable }
            return false
        }
        lastAttempt = now
        let refresh = Task { try await self.fetchAndStore() }
        inFlight = refresh
        defer { inFlight = nil }
        try await refresh.value
        return true
    }

    /// Whether a fetch has ever succeeded (keys are only ever replaced by a fresh, successful fetch).
    private var hasKeys: Bool { expiresAt != .distantPast }

    private func fetchAndStore() async throws {
        do {
            let (fresh, lifetime): (JWTKeyCollection, TimeInterval)
            do {
                (fresh, lifetime) = try await Self.fetch(
                    url: url, httpClient: httpClient, defaultLifetime: defaultLifetime)
            } catch  where !hasKeys {
                // Holding no keys, every request waits on this fetch: one more try beats refusing them all.
                (fresh, lifetime) = try await Self.fetch(
                    url: url, httpClient: httpClient, defaultLifetime: defaultLifetime)
            }
            keys = fresh
            expiresAt = clock.now.addingTimeInterval(lifetime)
            lastAttemptFailed = false
        } catch {
            lastAttemptFailed = true
            // Keys that have only expired still verify: a rotation is announced well before the old key goes.
            if !hasKeys { throw KeySetError.unavailable }
        }
    }

    private static func fetch(url: String, httpClient: HTTPClient, defaultLifetime: TimeInterval) async throws
        -> (JWTKeyCollection, TimeInterval)
    {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await httpClient.execute(request, timeout: .seconds(10))
        guard response.status == .ok else { throw KeySetError.fetchFailed(status: Int(response.status.code)) }
        let body = try await response.body.collect(upTo: 1 << 20)
        let jwks = try JSONDecoder().decode(JWKS.self, from: Data(body.readableBytesView))
        let fresh = JWTKeyCollection()
        try await fresh.add(jwks: jwks)
        // jwt-kit falls back to a default key for an unknown `kid`; without one, an unknown `kid` is
        // reported as such, which is what triggers the refresh after a key rotation.
        _ = await fresh.clearDefault()
        return (fresh, maxAge(response.headers.first(name: "Cache-Control")) ?? defaultLifetime)
    }

    /// The `max-age` directive of a Cache-Control header, in seconds.
    public static func maxAge(_ cacheControl: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = TimeInterval(parts[1]) {
                return seconds
            }
        }
        return nil
    }
}

/// Why a key set could not be fetched.
public enum KeySetError: Error, Sendable, Equatable {
    /// The issuer answered with a status other than 200.
    case fetchFailed(status: Int)
    /// No keys could be fetched yet: tokens cannot be checked either way.
    case unavailable
}
