import Hummingbird
import NIOCore
import PlatformKit

extension Request {
    /// The body as an uploaded image: read up to `maximumBytes` (413 `payload_too_large` beyond, the rest unread),
    /// then checked and stripped of metadata by ``ImageKind/clean(_:maximumBytes:field:)``.
    public func cleanImage(maximumBytes: Int) async throws -> CleanImage {
        let body: ByteBuffer
        do {
            body = try await self.body.collect(upTo: maximumBytes)
        } catch is NIOTooManyBytesError {
            throw Problem.payloadTooLarge(limit: maximumBytes)
        }
        return try await ImageKind.clean(body.readableBytesView, maximumBytes: maximumBytes)
    }
}
