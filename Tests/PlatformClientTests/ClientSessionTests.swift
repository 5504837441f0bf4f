import Foundation
import PlatformClient
import Synchronization
import TestSupport
import Testing

/// The hand-written layer of the client: the session's tokens and their rotation, and the live stream's resume.
@Suite(.serialized) struct ClientSessionTests {
    @Test func anExpiredAccessTokenIsRefreshedOnceForConcurrentCallsAndTheCallsRetried() async throws {
        try await withTestStack { stack in
            let people = ClientPeople(stack: stack)
            let alice = try await people.signUp("alice").client
            let before = try #require(await alice.session.tokens)
            stack.clock.advance(by: 15 * 60 + 1)
            // Five calls find the token expired at once; one refresh serves them all (a second use of the same
            // refresh token would end the session, and these calls would then fail).
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<5 { group.addTask { try await alice.api.getMe().ok.body.json.username ?? "" } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(names == Array(repeating: "alice", count: 5))
            let after = try #require(await alice.session.tokens)
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken, "the refresh token rotates")
            #expect(after.sessionId == before.sessionId)
            #expect(try await alice.api.getMe().ok.body.json.username == "alice")
        }
    }

    @Test func signingInAnswersTheProfileOrTheProblemsCode() async throws {
        try await withTestStack { stack in
            let people = ClientPeople(stack: stack)
            _ = try await people.signUp("alice")
            let phone = try people.client()
            await #expect(throws: PlatformClientError.self) {
                try await phone.signIn(identifier: "alice", password: "not the passphrase")
            }
            do {
                try await phone.signIn(identifier: "alice", password: "not the passphrase")
            } catch PlatformClientError.problem(let problem) {
                #expect(problem.status == 401)
                #expect(problem.code == "invalid_credentials")
            }
            #expect(await phone.session.tokens == nil)
            let profile = try await phone.signIn(identifier: "alice@example.com", password: "a long enough passphrase")
            #expect(profile.username == "alice")
            #expect(try await phone.api.getMe().ok.body.json.id == profile.id)
        }
    }

    @Test func aSessionThatCannotBeRefreshedEndsAndTheCallAnswers401() async throws {
        try await withTestStack { stack in
            let people = ClientPeople(stack: stack)
            let alice = try await people.signUp("alice").client
            // The same session signed out from another copy of the app: its refresh token is refused from now on.
            let other = try people.client(tokens: await alice.session.tokens)
            await other.signOut()
            stack.clock.advance(by: 15 * 60 + 1)
            let answer = try await alice.api.getMe()
            guard case .unauthorized(let unauthorized) = answer else {
                Issue.record("expected 401, got \(answer)")
                return
            }
            #expect(["token_expired", "session_ended"].contains(try unauthorized.body.applicationProblemJson.code))
            #expect(await alice.session.tokens == nil, "a refused refresh token signs the user out")
        }
    }

    // A limit for a hang only: the time includes waiting for one of the suite's few stack slots (StackAdmission).
    @Test(.timeLimit(.minutes(10))) func theLiveStreamResumesAfterTheLastEventSeen() async throws {
        try await ProductStack.run(notifications: true) { stack in
            let people = ClientPeople(stack: stack)
            let ann = try await people.signUp("ann").client
            let (bob, bobID) = try await people.signUp("bob")
            try await people.befriend(ann, bob, username: "bob")
            let conversation = try await ann.api.openDirectConversation(
                body: .json(.init(product: .wegroup, userId: bobID))
            ).created.body.json
            func send(_ text: String) async throws {
                _ = try await ann.api.sendMessage(
                    path: .init(conversationId: conversation.id), body: .json(.init(text: text))
                )
                .created
            }

            // Bob reads the first message's event, then his app goes away. (From the stream's start, "0", so the
            // event is there however late the connection opens.)
            var first: LiveEvent?
            try await send("one")
            for try await event in bob.liveEvents(after: "0") where event.data.contains("\"one\"") {
                first = event
                break
            }
            let seen = try #require(first?.id)
            try await send("two")
            try await send("three")

            // Back again, from the last event seen: the two it missed, in order, and not the first again.
            var texts: [String] = []
            for try await event in bob.liveEvents(after: seen) {
                for text in ["one", "two", "three"] where event.data.contains("\"\(text)\"") { texts.append(text) }
                if texts.count == 2 { break }
            }
            #expect(texts == ["two", "three"])
        }
    }
}
