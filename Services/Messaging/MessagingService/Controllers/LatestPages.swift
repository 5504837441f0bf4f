import NIOCore
import Synchronization

/// The latest page of the conversations and topics read most, kept as the JSON answered, each under the
/// conversation's revision it was read at.
///
/// Opening a topic reads its latest 50 messages, the same for every member until something in the conversation
/// changes; encoding them and reading their rows were half of that read's CPU (docs/architecture.md, "Measured on
/// this machine"). A kept page is answered only while the conversation's revision, which triggers bump on every
/// change to its messages or its topics' names, is the one it was read at, so it is never stale; the membership
/// checks run on every request as before. Pages are dropped oldest first beyond `maximumBytes`.
final class LatestPages: Sendable {
    struct Key: Hashable, Sendable {
        var conversationID: String
        var topicID: Int64?
        var limit: Int
    }

    private struct Page {
        var revision: Int64
        var body: ByteBuffer
    }

    private struct State {
        var pages: [Key: Page] = [:]
        /// Keys in the order they were first kept, for dropping the oldest.
        var order = CircularBuffer<Key>()
        var bytes = 0
        var hits = 0
    }

    let maximumBytes: Int
    private let state = Mutex(State())

    /// Keeps up to `maximumBytes` of pages (8 MiB: about 600 pages of 50 messages).
    init(maximumBytes: Int = 8 << 20) {
        self.maximumBytes = maximumBytes
    }

    /// The page kept for `key` if it was read at `revision`.
    func body(for key: Key, revision: Int64) -> ByteBuffer? {
        state.withLock { state in
            guard let page = state.pages[key], page.revision == revision else { return nil }
            state.hits += 1
            return page.body
        }
    }

    /// Keeps `body`, read at `revision`, for `key`, unless a page read at a later revision is kept already.
    func keep(_ body: ByteBuffer, for key: Key, revision: Int64) {
        guard body.readableBytes <= maximumBytes else { return }
        state.withLock { state in
            if let kept = state.pages[key] {
                guard kept.revision < revision else { return }
                state.bytes -= kept.body.readableBytes
            } else {
                state.order.append(key)
            }
            state.pages[key] = Page(revision: revision, body: body)
            state.bytes += body.readableBytes
            while state.bytes > maximumBytes, let oldest = state.order.popFirst() {
                state.bytes -= state.pages.removeValue(forKey: oldest)?.body.readableBytes ?? 0
            }
        }
    }

    /// How many requests were answered with a kept page (for tests and metrics).
    var hits: Int { state.withLock { $0.hits } }

    /// How many bytes of pages are kept.
    var bytes: Int { state.withLock { $0.bytes } }
}
