import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

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
