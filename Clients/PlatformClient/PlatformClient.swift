import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(OpenAPIAsyncHTTPClient)
    import OpenAPIAsyncHTTPClient
#endif
#if canImport(OpenAPIURLSession)
    import OpenAPIURLSession
#endif

/// The platform's API for an app. `api` is the generated client: every operation of the gateway's document, typed.
/// Around it, what generation cannot do: signing up and in, keeping the tokens and rotating the refresh token,
/// retrying a call once when its access token has expired, and the live stream with resume (``liveEvents(after:)``).
///
/// ```swift
/// let platform = PlatformClient(serverURL: URL(string: "https://api.example.com")!)
/// try await platform.signIn(identifier: "alice", password: "a long enough passphrase")
/// let today = try await platform.api.listHabitsToday().ok.body.json
/// ```
public struct PlatformClient: Sendable {
    /// Every operation, typed. Calls carry the session's access token (when signed in) and are retried once with
    /// a fresh one after `401 token_expired`.
    public let api: Client
    /// The tokens of the signed-in session (each change also goes to `onTokensChange`, for the app to keep).
    public let session: PlatformSession
    /// The same operations without the session: sign-in and refresh go through it.
    private let anonymous: Client

    /// A client of the gateway at `serverURL`. `transport` defaults to URLSession on Apple platforms and
    /// AsyncHTTPClient on Linux; `tokens` resumes a session kept from an earlier launch.
    public init(
        serverURL: URL, transport: (any ClientTransport)? = nil, tokens: SessionTokens? = nil,
        onTokensChange: @escaping @Sendable (SessionTokens?) -> Void = { _ in }
    ) {
        let transport = transport ?? Self.defaultTransport
        let anonymous = Client(serverURL: serverURL, transport: transport)
        let session = PlatformSession(tokens: tokens, onChange: onTokensChange) { refreshToken in
            switch try await anonymous.refresh(body: .json(.init(refreshToken: refreshToken))) {
            case .ok(let ok): SessionTokens(try ok.body.json)
            case .unauthorized, .badRequest: throw PlatformSession.RefreshRefused()
            case let other: throw PlatformClientError.unexpected("\(other)")
            }
        }
        self.anonymous = anonymous
        self.session = session
        self.api = Client(
            serverURL: serverURL, transport: transport, middlewares: [SessionMiddleware(session: session)])
    }

    /// URLSession on Apple platforms, AsyncHTTPClient elsewhere.
    public static var defaultTransport: any ClientTransport {
        #if canImport(OpenAPIURLSession)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport()
        #endif
    }

    // MARK: Signing up and in

    /// Creates an account and signs in to it; answers the new profile.
    @discardableResult
    public func register(email: String, username: String?, password: String, displayName: String? = nil)
        async throws -> Components.Schemas.MyProfile
    {
        let output = try await anonymous.register(
            body: .json(.init(displayName: displayName, email: email, password: password, username: username)))
        switch output {
        case .created(let created): return try await session.begin(created.body.json)
        case .badRequest(let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        case .conflict(let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        case .tooManyRequests(let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        case .default(_, let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        }
    }

    /// Signs in with a username or e-mail address and a password; answers the profile.
    @discardableResult
    public func signIn(identifier: String, password: String) async throws -> Components.Schemas.MyProfile {
        let output = try await anonymous.login(body: .json(.init(identifier: identifier, password: password)))
        switch output {
        case .ok(let ok): return try await session.begin(ok.body.json)
        case .badRequest(let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        case .unauthorized(let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        case .tooManyRequests(let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        case .default(_, let answer): throw PlatformClientError.problem(try answer.body.applicationProblemJson)
        }
    }

    /// Ends this session on the server (when it still can) and forgets its tokens.
    public func signOut() async {
        if await session.tokens != nil { _ = try? await api.logout() }
        await session.end()
    }
}

/// What a ``PlatformClient`` call can fail with beyond the transport's errors.
public enum PlatformClientError: Error, Sendable, CustomStringConvertible {
    /// The API answered with an RFC 9457 problem; switch on `code`.
    case problem(Components.Schemas.Problem)
    /// An answer the operation does not document.
    case unexpected(String)

    public var description: String {
        switch self {
        case .problem(let problem): "\(problem.status) \(problem.code): \(problem.detail ?? problem.title)"
        case .unexpected(let answer): "unexpected answer: \(answer)"
        }
    }
}
