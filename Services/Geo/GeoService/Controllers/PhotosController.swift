import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Pictures of a pin: its owner uploads and deletes them; whoever may see the pin may see them.
struct PhotosController {
    let database: any GeoStore
    let graph: any SocialRelationshipsLookup
    let clock: WallClock

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

        init(_ info: PinPhotoRecord) {
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
            body = try await request.body.collect(upTo: PinLimits.photoBytes)
        } catch {
            throw Problem.payloadTooLarge(limit: PinLimits.photoBytes)
        }
        let image = try await ImageKind.clean(body.readableBytesView, maximumBytes: PinLimits.photoBytes)
        let bytes = image.bytes
        let info = PinPhotoRecord(
            id: UUID().uuidString.lowercased(), pinId: pinID, mediaType: image.mediaType,
            etag: EntityTag(of: bytes).description,
            byteCount: bytes.count, createdAt: clock.now)
        try await database.addPhoto(info, bytes: bytes, by: context.user.userID)
        return EditedResponse(status: .created, response: PhotoView(info))
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<PhotoView> {
        let pinID = try context.parameters.id("pin", "The pin")
        try await requireVisiblePin(pinID, to: context.user.userID)
        return try request.page(of: try await database.photos(of: pinID).map(PhotoView.init))
    }

    /// The photo's bytes with a strong ETag; `If-None-Match` with it answers 304.
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pinID = try context.parameters.id("pin", "The pin")
        try await requireVisiblePin(pinID, to: context.user.userID)
        return try await database.photo(try context.parameters.require("photo"), of: pinID).response(to: request)
    }

    /// Whoever may see the pin may see its photos; a pin hidden from the viewer is not found.
    private func requireVisiblePin(_ id: Int64, to viewer: String) async throws {
        let owner = try await database.pin(id).userId
        _ = try PinVisibility.category(
            owner: owner, viewer: viewer, standing: try await graph.standing(of: owner, to: viewer))
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deletePhoto(
            try context.parameters.require("photo"), of: try context.parameters.id("pin", "The pin"),
            by: context.user.userID)
        return .noContent
    }
}
