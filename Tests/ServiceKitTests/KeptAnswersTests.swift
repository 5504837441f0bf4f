import NIOCore
import Testing

@testable import ServiceKit

/// ``KeptAnswers`` gives an answer back only for the revision it was read at, keeps the latest revision, and drops
/// the answers kept first when over its bytes.
@Suite struct KeptAnswersTests {
    @Test func answersStayWithinTheirBytesAndALaterRevisionWins() {
        let answers = KeptAnswers<String>(maximumBytes: 10)
        answers.keep(ByteBuffer(string: "aaaa"), for: "a", revision: 2)
        // Read before the one kept, finished after it: not kept over it.
        answers.keep(ByteBuffer(string: "old"), for: "a", revision: 1)
        #expect(answers.body(for: "a", revision: 2) == ByteBuffer(string: "aaaa"))
        #expect(answers.body(for: "a", revision: 1) == nil)
        #expect(answers.body(for: "a", revision: 3) == nil)
        #expect(answers.hits == 1)
        answers.keep(ByteBuffer(string: "bbbb"), for: "b", revision: 1)
        answers.keep(ByteBuffer(string: "cccc"), for: "c", revision: 1)
        #expect(answers.bytes == 8)
        #expect(answers.body(for: "a", revision: 2) == nil)
        #expect(answers.body(for: "c", revision: 1) == ByteBuffer(string: "cccc"))
        answers.keep(ByteBuffer(string: "too large an answer"), for: "d", revision: 1)
        #expect(answers.body(for: "d", revision: 1) == nil && answers.bytes == 8)
    }
}
