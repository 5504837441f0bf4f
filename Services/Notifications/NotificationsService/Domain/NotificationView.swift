import Foundation
import PlatformKit

/// A notice as its recipient sees it: in the inbox, and as the payload of the live stream's
/// `notification.created` event.
struct NotificationView: Codable, Sendable, Equatable {
    var id: String
    var kind: String
    var text: String
    var link: String
    var producer: String
    var createdAt: Date
    var readAt: Date?
    var read: Bool
}

/// An inbox page is 20 of these: written by hand rather than through `Encodable`'s containers (the page's JSON was a
/// seventh of the inbox's CPU in a profile). The bytes are those of `encode(to:)` (members sorted, an absent `readAt`
/// left out), which Foundation's encoder still uses; a test compares the two.
extension NotificationView: JSONSelfWriting {
    func writeJSON(to json: JSONOutput) {
        json.raw(#"{"createdAt":"#)
        json.date(createdAt)
        json.raw(#","id":"#)
        json.string(id)
        json.raw(#","kind":"#)
        json.string(kind)
        json.raw(#","link":"#)
        json.string(link)
        json.raw(#","producer":"#)
        json.string(producer)
        json.raw(#","read":"#)
        json.bool(read)
        json.date(#","readAt":"#, readAt)
        json.raw(#","text":"#)
        json.string(text)
        json.raw("}")
    }
}
