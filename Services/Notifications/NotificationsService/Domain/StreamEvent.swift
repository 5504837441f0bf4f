import Foundation
import PlatformKit

/// One event of a user's live stream, as stored for resume and as written on the wire.
struct StreamEvent: Sendable, Equatable {
    /// Increases across the whole service; a client's `Last-Event-ID`.
    var seq: Int64
    var recipientID: String
    /// `notification.created`, `notification.read`, or a producer's type such as `message.created`.
    var type: String
    /// A compact JSON object (no line breaks, which would end an SSE field).
    var payload: String
}

extension StreamEvent {
    /// An event payload: compact JSON on one line.
    static func payload(_ value: some Encodable) throws -> String {
        String(decoding: try PlatformJSON.encoder.encode(value), as: UTF8.self)
    }
}

/// The payload of a `notification.read` event: the notices marked read, or all of them.
struct ReadMarker: Encodable {
    var ids: [String]?
    var all: Bool

    /// Marks `id` read, or every notice when it is nil.
    init(id: String?) {
        ids = id.map { [$0] }
        all = id == nil
    }
}
