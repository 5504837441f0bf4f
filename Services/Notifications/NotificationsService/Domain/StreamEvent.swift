import Foundation

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
