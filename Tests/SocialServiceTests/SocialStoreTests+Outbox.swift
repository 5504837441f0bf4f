import Foundation
import ServiceKit
import TestSupport
import Testing

@testable import SocialService

/// With the outbox as the notice sink, the social graph's changes write their notices in their own transaction, on
/// both engines: a change stored has its notice waiting, a refused one leaves none.
extension SocialStoreTests {
    @Test(arguments: StoreKind.allCases) func followAndAnswerNoticesAreWrittenWithThem(kind: StoreKind) async throws {
        try await withSocialStores(kind) { stores in
            // given the store's outbox as the service's notice sink
            let store = stores[0]
            let outbox = try #require(store.outbox)
            let notices = SocialNotices(sink: OutboxNoticeSink.undelivered(outbox, producer: .social))
            // when ann asks to follow bob twice (the second is refused: it is pending), bob approves twice (the
            // second finds no request), and cat rejects dan's request
            _ = try await store.follow("ann", "bob", now: now, notices: notices.followRequest(to: "bob", from: "Ann"))
            await #expect(throws: SocialError.self) {
                _ = try await store.follow(
                    "ann", "bob", now: now, notices: notices.followRequest(to: "bob", from: "Ann"))
            }
            for _ in 0..<2 {
                _ = try? await store.answerFollow(
                    of: "ann", to: "bob", approve: true, notices: notices.followAnswered(to: "ann", by: "Bob"))
            }
            _ = try await store.follow("dan", "cat", now: now, notices: nil)
            try await store.answerFollow(
                of: "dan", to: "cat", approve: false, notices: notices.followAnswered(to: "dan", by: "Cat"))
            // and a friend request from ann is accepted by bob twice (the second is refused), one from cat declined
            guard case .sent(let request) = try await store.sendFriendRequest(from: "ann", to: "bob", now: now),
                case .sent(let other) = try await store.sendFriendRequest(from: "cat", to: "bob", now: now)
            else { throw SocialError.notFound("the request") }
            for _ in 0..<2 {
                _ = try? await store.answer(
                    request.id, by: "bob", .accept, now: now, notices: notices.answered(by: "Bob"))
            }
            _ = try await store.answer(other.id, by: "bob", .decline, now: now, notices: notices.answered(by: "Bob"))
            // then the request's, the approval's and the acceptance's notices wait, once each
            let waiting = try await outbox.waitingPosts()
            #expect(
                waiting == [
                    PostedEntry(recipientIds: ["bob"], kind: "social.follow_request"),
                    PostedEntry(recipientIds: ["ann"], kind: "social.follow_approved"),
                    PostedEntry(recipientIds: ["ann"], kind: "social.friend_accepted"),
                ])
        }
    }
}
