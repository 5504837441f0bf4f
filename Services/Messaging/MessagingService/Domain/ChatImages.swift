import Foundation
import PlatformKit

/// Images in messages (Slack's and Zulip's way): a member uploads an image to a conversation first, then sends a
/// message naming it; until then only they see it, and an upload not sent within a day is swept.
enum ChatImages {
    /// The largest upload, in bytes.
    static let maximumBytes = 5 << 20
    /// Images one message carries.
    static let maximumPerMessage = 4
    /// The most pixels an image may have: a small file can claim a huge canvas that every reader's app would have to
    /// decode.
    static let maximumPixels = 50_000_000
    /// Uploads a member may hold that are not in a message yet, across their conversations.
    static let maximumPending = 20
    /// How long an upload waits for its message before it is swept.
    static let pendingLifetime: TimeInterval = 86_400

    /// The image's shown size, refused as `invalid_image` when its header does not say one or it is too large.
    static func size(of image: CleanImage) throws(MessagingError) -> ImageSize {
        guard let size = image.size else {
            throw .invalidImage("The image's header does not give its width and height.")
        }
        guard size.width <= maximumPixels / size.height else {
            throw .invalidImage(
                "The image is \(size.width)×\(size.height) pixels; at most \(maximumPixels / 1_000_000) megapixels.")
        }
        return size
    }

    /// The image ids a message names: at most ``maximumPerMessage``, each an upload id (a UUID), none twice.
    static func imageIDs(_ ids: [String]?) throws(MessagingError) -> [String] {
        let ids = ids ?? []
        guard ids.count <= maximumPerMessage else {
            throw .invalidField("imageIds", "must name at most \(maximumPerMessage) images.")
        }
        guard ids.allSatisfy({ $0.count <= 36 && UUID(uuidString: $0) != nil }) else {
            throw .invalidField("imageIds", "must hold the ids the image uploads answered.")
        }
        guard Set(ids.map { $0.lowercased() }).count == ids.count else {
            throw .invalidField("imageIds", "must not name an image twice.")
        }
        return ids.map { $0.lowercased() }
    }

    /// The refusal of an image id a send names that is not the sender's upload to this conversation waiting for its
    /// message.
    static func notAttachable(_ imageID: String) -> MessagingError {
        .invalidField("imageIds", "\(imageID) is not an image you uploaded to this conversation and have not sent yet.")
    }

    /// A message says something: words, images or both.
    static func requireContent(text: String, images: Int) throws(MessagingError) {
        guard !text.isEmpty || images > 0 else { throw .invalidField("text", "must not be empty.") }
    }

    /// What a notice quotes of a message: its text, or for one of images only, what it holds ("📷 Image").
    static func noticeText(_ text: String, images: Int) -> String {
        guard text.isEmpty, images > 0 else { return text }
        return images == 1 ? "📷 Image" : "📷 \(images) images"
    }
}
