import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

extension Problem: ResponseGenerator {}
extension Problem: HTTPResponseError {
    public var status: HTTPResponse.Status { .init(code: statusCode) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    /// The problem as an `application/problem+json` response.
    public func response() -> Response {
        let body = jsonData
        var headers: HTTPFields = [.contentType: Problem.mediaType, .contentLength: String(body.count)]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Pages are returned from handlers as JSON.
extension Page: ResponseGenerator, ResponseEncodable {}
