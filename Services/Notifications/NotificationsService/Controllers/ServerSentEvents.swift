import NIOCore

/// The `text/event-stream` wire format (WHATWG HTML, "Server-sent events").
enum ServerSentEvents {
    /// How long a client waits before reconnecting, sent once at the start.
    static let retryMilliseconds = 3_000

    static func encode(_ event: StreamEvent, into buffer: inout ByteBuffer) {
        buffer.writeString("id: \(event.seq)\nevent: \(event.type)\ndata: \(event.payload)\n\n")
    }

    /// A comment line: keeps proxies and mobile networks from closing an idle connection.
    static func heartbeat(into buffer: inout ByteBuffer) {
        buffer.writeString(": heartbeat\n\n")
    }

    /// Opens the stream: the reconnect delay and a comment, so the client sees bytes at once.
    static func opening(into buffer: inout ByteBuffer) {
        buffer.writeString("retry: \(retryMilliseconds)\n: connected\n\n")
    }

    /// Tells a client whose `Last-Event-ID` is older than what is kept to reload its state.
    static func resync(into buffer: inout ByteBuffer) {
        buffer.writeString("event: resync\ndata: {}\n\n")
    }

    /// Tells the client why the stream is about to close: `session_ended` (sign in again) or `token_expired`
    /// (refresh the token, then reconnect with `Last-Event-ID`). It carries no id, so the client's last id stays.
    static func reauthenticate(_ end: StreamEnd, into buffer: inout ByteBuffer) {
        buffer.writeString("event: reauthenticate\ndata: {\"reason\":\"\(end.rawValue)\"}\n\n")
    }

    /// The `Last-Event-ID` a reconnecting client sent: a decimal sequence number, or nothing.
    static func lastEventID(_ value: String?) -> Int64?? {
        guard let value, !value.isEmpty else { return .some(nil) }
        guard value.utf8.count <= 19, let seq = Int64(value), seq >= 0 else { return nil }
        return .some(seq)
    }
}
