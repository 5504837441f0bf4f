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
