import Foundation
import OpenAPIAsyncHTTPClient
import PlatformClient
import Synchronization
import TestSupport
import Testing

/// The README's getting-started steps with the Swift client, as written there, against a whole stack.
@Suite struct GettingStartedTests {
    // A limit for a hang only: the time includes waiting for one of the suite's few stack slots (StackAdmission).
    @Test(.timeLimit(.minutes(10))) func theGuidesStepsWorkAsWritten() async throws {
        try await ProductStack.run(notifications: true) { stack in
            let saved = Mutex<[SessionTokens?]>([])
            let platform = PlatformClient(
                serverURL: try #require(URL(string: stack.gateway.baseURL)), transport: AsyncHTTPClientTransport()
            ) { tokens in
                saved.withLock { $0.append(tokens) }
            }
            // 1. Sign up.
            let me = try await platform.register(
                email: "sam@example.com", username: "sam", password: "a long enough passphrase")
            #expect(saved.withLock { $0.count } == 1)
            // 2 and 3. Any operation, also after the access token expired.
            stack.clock.advance(by: 15 * 60 + 1)
            let profile = try await platform.api.getMe().ok.body.json
            #expect(profile.id == me.id)
            #expect(saved.withLock { $0.count } == 2, "the rotated tokens were handed to the app")
            // 5. Pages (three friends, two a page).
            let people = ClientPeople(stack: stack)
            var friendClients: [PlatformClient] = []
            for name in ["ann", "bob", "cat"] {
                let friend = try await people.signUp(name).client
                try await people.befriend(friend, platform, username: "sam")
                friendClients.append(friend)
            }
            var cursor: String? = nil
            var friends: [String] = []
            repeat {
                let page = try await platform.api.listFriends(query: .init(limit: 2, cursor: cursor)).ok.body.json
                friends += page.items.compactMap(\.username)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(friends.sorted() == ["ann", "bob", "cat"])
            // 6. A write a retry could repeat, sent twice.
            let household = try await platform.api.createHousehold(body: .json(.init(name: "Flat 4B")))
                .created.body.json.id
            func addPizza() async throws -> Operations.AddBill.Output {
                try await platform.api.addBill(
                    path: .init(household: household),
                    headers: .init(idempotencyKey: "7b0f9c1e-bill-pizza"),
                    body: .json(.init(amount: 3000, currency: "EUR", description: "Pizza", split: .init(kind: .equal))))
            }
            let first = try await addPizza().created.body.json
            let retry = try await addPizza().ok.body.json
            #expect(retry.id == first.id)
            // A problem: its code and the field, in the client's words.
            let invalid = try await platform.api.addBill(
                path: .init(household: household),
                body: .json(.init(amount: 0, currency: "EUR", description: "Nothing", split: .init(kind: .equal))))
            guard case .badRequest(let problem) = invalid else {
                Issue.record("expected 400, got \(invalid)")
                return
            }
            #expect(try problem.body.applicationProblemJson.errors?.map(\.field) == ["amount"])
            // 4. The live stream (from its start, so the message below is in it however late it connects).
            let ann = try #require(friendClients.first)
            let chat = try await ann.api.openDirectConversation(body: .json(.init(product: .wegroup, userId: me.id)))
                .created.body.json
            _ = try await ann.api.sendMessage(path: .init(conversationId: chat.id), body: .json(.init(text: "Hi Sam")))
                .created
            for try await event in platform.liveEvents(after: "0") where event.name == "message.created" {
                #expect(event.data.contains("Hi Sam"))
                #expect(event.id != nil)
                break
            }
            // Signing out hands the app nil.
            await platform.signOut()
            #expect(saved.withLock { $0.last } == .some(nil))
        }
    }
}
