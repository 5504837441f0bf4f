import NIOCore
import Synchronization

/// Answers kept as the JSON sent, each under the revision of the data it was read from, for hot reads that many
/// callers make of the same data (a topic's latest messages, a household's chore list).
///
/// A kept answer is given back only for the revision it was read at. The revision must be one the database keeps
/// itself (a column that triggers bump on every change to what the answer shows), and the answer and its revision
/// must come from one read's snapshot; the caller checks access on every request before asking. Answers are dropped
/// in the order they were first kept once they pass `maximumBytes`.
public final class KeptAnswers<Key: Hashable & Sendable>: Sendable {
    private struct Answer {
        var revision: Int64
        var body: ByteBuffer
    }

    private struct State {
        var answers: [Key: Answer] = [:]
        /// Keys in the order they were first kept, for dropping the oldest.
        var order = CircularBuffer<Key>()
        var bytes = 0
        var hits = 0
    }

    /// The most bytes of answers kept at once.
    public let maximumBytes: Int
    private let state = Mutex(State())

    /// Keeps up to `maximumBytes` of answers (8 MiB by default: about 600 pages of 50 messages).
    public init(maximumBytes: Int = 8 << 20) {
        self.maximumBytes = maximumBytes
    }

    /// The answer kept for `key` if it was read at `revision`.
    public func body(for key: Key, revision: Int64) -> ByteBuffer? {
        state.withLock { state in
            guard let answer = state.answers[key], answer.revision == revision else { return nil }
            state.hits += 1
            return answer.body
        }
    }

    /// Keeps `body`, read at `revision`, for `key`, unless an answer read at a later revision is kept already.
    public func keep(_ body: ByteBuffer, for key: Key, revision: Int64) {
        guard body.readableBytes <= maximumBytes else { return }
        state.withLock { state in
            if let kept = state.answers[key] {
                guard kept.revision < revision else { return }
                state.bytes -= kept.body.readableBytes
            } else {
                state.order.append(key)
            }
            state.answers[key] = Answer(revision: revision, body: body)
            state.bytes += body.readableBytes
            while state.bytes > maximumBytes, let oldest = state.order.popFirst() {
                state.bytes -= state.answers.removeValue(forKey: oldest)?.body.readableBytes ?? 0
            }
        }
    }

    /// How many requests were answered with a kept answer.
    public var hits: Int { state.withLock { $0.hits } }

    /// How many bytes of answers are kept.
    public var bytes: Int { state.withLock { $0.bytes } }
}
