import Crypto
import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Pictures of a pin: its owner uploads and deletes them; whoever may see the pin may see them.
struct PhotosController {
    let database: GeoDatabase
    let access: PinAccess
    let clock: WallClock
    static let maximumPhotoBytes = 4 << 20

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let photos = GeoPaths.pins + "/:pin/photos"
        router.post(RouterPath(photos), use: upload)
        router.get(RouterPath(photos), use: list)
        router.get(RouterPath(photos + "/:photo"), use: show)
        router.delete(RouterPath(photos + "/:photo"), use: delete)
    }

    struct PhotoView: ResponseEncodable, Sendable {
        var id: String
        var pinId: String
        var mediaType: String
        var byteCount: Int
        var url: String
        var createdAt: Date

        init(_ info: PhotoInfo) {
            self.id = info.id
            self.pinId = String(info.pinId)
            self.mediaType = info.mediaType
            self.byteCount = info.byteCount
            self.url = GeoPaths.pins + "/\(info.pinId)/photos/\(info.id)"
            self.createdAt = info.createdAt
        }
    }

    /// Adds a photo to my pin: the raw JPEG, PNG or WebP body (recognised by its bytes), at most 4 MiB.
    @Sendable func upload(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<PhotoView> {
        let pinID = try context.parameters.id("pin", "The pin")
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maximumPhotoBytes)
        } catch {
            throw Problem.payloadTooLarge(limit: Self.maximumPhotoBytes)
        }
        let kind = try ImageKind.validate(body.readableBytesView, maximumBytes: Self.maximumPhotoBytes)
        let bytes = Data(body.readableBytesView)
        let etag = "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        let info = PhotoInfo(
            id: UUID().uuidString.lowercased(), pinId: pinID, mediaType: kind.mediaType, etag: etag,
            byteCount: bytes.count, createdAt: clock.now)
        try await database.addPhoto(info, bytes: bytes, by: context.user.userID)
        return EditedResponse(status: .created, response: PhotoView(info))
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> ItemList<PhotoView> {
        let (pin, _) = try await access.visiblePin(try context.parameters.require("pin"), to: context.user.userID)
        return ItemList(items: try await database.photos(of: pin.id ?? 0).map(PhotoView.init))
    }

    /// The photo's bytes with a strong ETag; `If-None-Match` with it answers 304.
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (pin, _) = try await access.visiblePin(try context.parameters.require("pin"), to: context.user.userID)
        guard let photo = try await database.photo(try context.parameters.require("photo"), of: pin.id ?? 0) else {
            throw Problem.notFound("The photo")
        }
        var headers: HTTPFields = [.eTag: photo.etag, .cacheControl: "private, max-age=300, must-revalidate"]
        if request.headers[.ifNoneMatch] == photo.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = photo.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deletePhoto(
            try context.parameters.require("photo"), of: try context.parameters.id("pin", "The pin"),
            by: context.user.userID)
        return .noContent
    }
}
