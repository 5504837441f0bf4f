import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

/// Bytes a service keeps in its database and serves under a URL (a photo, a profile picture, a receipt), with
/// the one caching policy of the platform.
public struct StoredBytes: Sendable {
    /// The content.
    public var bytes: Data
    /// Its media type, e.g. `image/jpeg`.
    public var mediaType: String
    /// Its strong entity tag, stored beside it.
    public var tag: EntityTag

    /// Stored bytes as read back from the database.
    public init(bytes: Data, mediaType: String, tag: EntityTag) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.tag = tag
    }

    /// Clients and private caches may reuse the bytes for a minute, then must ask again; the ETag makes asking
    /// cheap (a 304 without the bytes). A minute bounds how long a replaced picture can show under the same URL.
    public static let cacheControl = "private, max-age=60, must-revalidate"

    /// For bytes that never change under their URL (a new picture gets a new id): clients keep them for a year.
    public static let immutableCacheControl = "private, max-age=31536000, immutable"

    /// The answer to a GET: 304 without a body when `If-None-Match` names the current tag, else 200 with the bytes,
    /// their type and length; both carry `ETag` and `Cache-Control` (``cacheControl`` unless told otherwise).
    public func response(to request: Request, cacheControl: String = Self.cacheControl) -> Response {
        var headers: HTTPFields = [.eTag: tag.description, .cacheControl: cacheControl]
        if tag.isMatched(byIfNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = mediaType
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
