import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

/// Carries the gateway's `X-Request-Id` into the request's logger and back out on the response,
/// making one id up for calls that did not come through the gateway.
public struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var context = context
        let id =
            request.headers[requestIDField].flatMap { $0.utf8.count <= 128 ? $0 : nil } ?? RequestIDs.next()
        context.logger[metadataKey: "request_id"] = .string(id)
        var response = try await CurrentRequest.$id.withValue(id) { try await next(request, context) }
        response.headers[requestIDField] = id
        return response
    }
}

/// The request being handled by the current task, as ``RequestIDMiddleware`` saw it.
public enum CurrentRequest {
    /// Its request id: ``InternalClient`` carries it on to the services it calls.
    @TaskLocal public static var id: String?
}

let requestIDField = HTTPField.Name(PlatformHeaders.requestID)!
let internalTokenField = HTTPField.Name(PlatformHeaders.internalToken)!

/// Requires a valid access token and puts the verified caller into the context.
public struct AccessTokenMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    let verifier: AccessTokenVerifier
    let writesNeedUsername: Bool

    /// Verifies each request's token; with `writesNeedUsername`, refuses all but reads from an account without a
    /// username (403 `username_required`).
    public init(verifier: AccessTokenVerifier, writesNeedUsername: Bool = false) {
        self.verifier = verifier
        self.writesNeedUsername = writesNeedUsername
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var context = context
        let user = try await verifier.verify(authorization: request.headers[.authorization])
        if writesNeedUsername, user.needsUsername, request.method != .get, request.method != .head {
            throw Problem.forbidden(
                "username_required",
                "Choose a username first (PATCH /v1/users/me with `username`), then refresh the access token.")
        }
        context.user = user
        context.logger[metadataKey: "user_id"] = .string(user.userID)
        return try await next(request, context)
    }
}

/// Guards `/internal/...` routes: only callers holding the service credential get through.
public struct InternalCredentialMiddleware<Context: RequestContext>: RouterMiddleware {
    let expected: [UInt8]

    public init(token: String) {
        self.expected = Array(token.utf8)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let presented = Array((request.headers[internalTokenField] ?? "").utf8)
        guard !expected.isEmpty, ConstantTime.equals(presented, expected) else {
            throw Problem.forbidden("internal_only", "This route is for platform services only.")
        }
        return try await next(request, context)
    }
}
