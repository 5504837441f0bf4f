import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

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
