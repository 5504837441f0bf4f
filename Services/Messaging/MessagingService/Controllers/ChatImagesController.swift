import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Images in messages (``ChatImages``): a member uploads one to a conversation, then sends a message naming it in
/// `imageIds`; members read the images of the messages they see, an uploader their own uploads.
struct ChatImagesController {
    let store: any MessagingStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let images = MessagingPaths.conversations + "/:conversation/images"
        router.post(RouterPath(images), use: upload)
        router.get(RouterPath(images + "/:image"), use: show)
    }

    /// Keeps an image for a message to come: the raw JPEG, PNG or WebP body (recognised by its bytes), at most
    /// ``ChatImages/maximumBytes``, stored without its metadata; answers its id and its size as shown.
    @Sendable func upload(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<ImageView> {
        let conversationID = try context.parameters.require("conversation")
        let me = context.user.userID
        // Outsiders are refused before their bytes are read.
        _ = try await store.conversationRecord(conversationID, asMember: me)
        let clean = try await request.cleanImage(maximumBytes: ChatImages.maximumBytes)
        let size = try ChatImages.size(of: clean)
        let image = MessageImage(
            id: UUID().uuidString.lowercased(), mediaType: clean.mediaType, width: size.width, height: size.height,
            byteCount: clean.bytes.count)
        try await store.addImage(
            image, bytes: StoredBytes(bytes: clean.bytes, mediaType: clean.mediaType, tag: EntityTag(of: clean.bytes)),
            to: conversationID, by: me, now: clock.now)
        return EditedResponse(status: .created, response: ImageView(image, in: conversationID))
    }

    /// The image's bytes with a strong ETag (`If-None-Match` with it answers 304); an image's bytes never change, so
    /// clients may keep them. Platform admins also read the images of reported messages, to decide on them.
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let imageID = try context.parameters.require("image")
        let conversationID = try context.parameters.require("conversation")
        let image: StoredBytes
        do {
            image = try await store.image(imageID, in: conversationID, asMember: context.user.userID)
        } catch MessagingError.notFound(_) where context.user.isAdmin {
            image = try await store.reportedImage(imageID, in: conversationID)
        }
        return image.response(to: request, cacheControl: StoredBytes.immutableCacheControl)
    }
}

/// An image of a message, or an upload: what a client lays out before it fetches `url`.
struct ImageView: ResponseEncodable, Codable, Sendable {
    var id: String
    var contentType: String
    /// Pixels as shown (the EXIF orientation applied).
    var width: Int
    var height: Int
    var byteCount: Int
    var url: String

    init(_ image: MessageImage, in conversationID: String) {
        id = image.id
        contentType = image.mediaType
        width = image.width
        height = image.height
        byteCount = image.byteCount
        url = MessagingPaths.conversations + "/\(conversationID)/images/\(image.id)"
    }
}
