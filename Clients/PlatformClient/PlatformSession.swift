import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The tokens of one signed-in session, as an app keeps them (in the Keychain, say) between launches.
public struct SessionTokens: Codable, Sendable, Hashable {
    /// Sent as `Authorization: Bearer …`; lives 15 minutes.
    public var accessToken: String
    /// Exchanged for a new pair; each use replaces it (a reused one ends the session).
    public var refreshToken: String
    public var sessionId: String

    public init(accessToken: String, refreshToken: String, sessionId: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.sessionId = sessionId
    }

    init(_ pair: Components.Schemas.TokenPair) {
        self.init(accessToken: pair.accessToken, refreshToken: pair.refreshToken, sessionId: pair.sessionId)
    }
}

/// Holds the session's tokens and rotates them. Concurrent calls that find the access token expired share one
/// refresh: a refresh token is single use, so two refreshes with it would end the session.
public actor PlatformSession {
    /// The current tokens; nil when signed out.
    public private(set) var tokens: SessionTokens?
    private let onChange: @Sendable (SessionTokens?) -> Void
    private let exchange: @Sendable (String) async throws -> SessionTokens
    private var refreshing: Task<Refresh, Never>?

    /// The refresh token was refused (used, revoked, or the session ended): the user must sign in again.
    struct RefreshRefused: Error {}

    init(
        tokens: SessionTokens?, onChange: @escaping @Sendable (SessionTokens?) -> Void,
        exchange: @escaping @Sendable (String) async throws -> SessionTokens
    ) {
        self.tokens = tokens
        self.onChange = onChange
        self.exchange = exchange
    }

    func begin(_ pair: Components.Schemas.TokenPair) -> Components.Schemas.MyProfile {
        set(SessionTokens(pair))
        return pair.user
    }

    /// Uses `fresh` in place of the access token `stale` (identity hands one over when the account chooses its first
    /// username); the refresh token stays. Nothing changes when the tokens moved on meanwhile.
    func adopt(accessToken fresh: String, replacing stale: String) {
        guard var current = tokens, current.accessToken == stale else { return }
        current.accessToken = fresh
        set(current)
    }

    /// Signs out locally; a refresh still in flight is then not applied.
    func end() {
        refreshing = nil
        set(nil)
    }

    /// A fresh access token in place of `stale`, or nil when there is none to give: the refresh token was
    /// refused (the session is then ended) or the network failed (the session is kept for a later try). A caller
    /// that finds the token already replaced gets the new one without another exchange.
    func accessToken(replacing stale: String) async -> String? {
        if let tokens, tokens.accessToken != stale { return tokens.accessToken }
        let task: Task<Refresh, Never>
        if let refreshing {
            task = refreshing
        } else {
            guard let refreshToken = tokens?.refreshToken else { return nil }
            let exchange = self.exchange
            task = Task { await Self.exchange(refreshToken, with: exchange) }
            refreshing = task
        }
        let outcome = await task.value
        if refreshing == task {
            refreshing = nil
            switch outcome {
            case .fresh(let fresh): set(fresh)
            case .refused: set(nil)
            case .failed: break
            }
        }
        if case .fresh(let fresh) = outcome, tokens != nil { return fresh.accessToken }
        return nil
    }

    private enum Refresh: Sendable {
        case fresh(SessionTokens)
        case refused
        case failed
    }

    private static func exchange(
        _ refreshToken: String, with exchange: @Sendable (String) async throws -> SessionTokens
    ) async -> Refresh {
        do {
            return .fresh(try await exchange(refreshToken))
        } catch is RefreshRefused {
            return .refused
        } catch {
            return .failed
        }
    }

    private func set(_ new: SessionTokens?) {
        tokens = new
        onChange(new)
    }
}

/// Signs every call with the session's access token; after `401 token_expired` it refreshes once and sends the
/// call again (when its body can be sent twice); `401 session_ended` forgets the tokens. Every answer the app
/// gets is the service's.
struct SessionMiddleware: ClientMiddleware {
    let session: PlatformSession

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = await session.tokens?.accessToken else { return try await next(request, body, baseURL) }
        var signed = request
        signed.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(signed, body, baseURL)
        if operationID == "updateMe", response.status == .ok, let responseBody {
            // A first username comes with an access token without `needs_username`: the next call already uses it.
            let bytes = try await Data(collecting: responseBody, upTo: 1 << 20)
            if let fresh = try? JSONDecoder().decode(FreshAccessToken.self, from: bytes).accessToken {
                await session.adopt(accessToken: fresh, replacing: token)
            }
            return (response, HTTPBody(bytes))
        }
        guard response.status == .unauthorized, body.map({ $0.iterationBehavior == .multiple }) ?? true else {
            return (response, responseBody)
        }
        // A problem body is small; read it to learn whether the token only expired.
        var bytes = Data()
        if let responseBody { bytes = try await Data(collecting: responseBody, upTo: 64 * 1024) }
        let problem = try? JSONDecoder().decode(ProblemCode.self, from: bytes)
        if problem?.code == "session_ended" { await session.end() }
        guard problem?.code == "token_expired", let fresh = await session.accessToken(replacing: token) else {
            return (response, HTTPBody(bytes))
        }
        signed.headerFields[.authorization] = "Bearer \(fresh)"
        return try await next(signed, body, baseURL)
    }

    private struct ProblemCode: Decodable {
        var code: String
    }

    private struct FreshAccessToken: Decodable {
        var accessToken: String
    }
}
