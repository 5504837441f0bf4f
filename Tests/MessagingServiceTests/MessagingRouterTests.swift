import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import MessagingService

/// The controllers behind a router with fakes for identity and social: each route's edge cases, fast. A bearer
/// token is the caller's user id (the fake verifier trusts it); `admin` holds the admin role.
@Suite struct MessagingRouterTests {
    /// ann, bob and cat are friends of each other; eve is nobody's friend; dan blocked ann.
    struct Graph: SocialGraph {
        static let friends: Set<[String]> = [["ann", "bob"], ["ann", "cat"], ["bob", "cat"]]
        static let blocks: Set<[String]> = [["ann", "dan"]]

        func relationship(_ a: String, _ b: String) async throws -> SocialFacts {
            let pair = [a, b].sorted()
            return SocialFacts(friends: Self.friends.contains(pair), blocked: Self.blocks.contains(pair))
        }

        func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] {
            var facts: [String: SocialFacts] = [:]
            for other in others { facts[other] = try await relationship(viewer, other) }
            return facts
        }
    }

    struct Directory: UserDirectory {
        static let names = ["ann", "bob", "cat", "dan", "eve"]

        func user(username: String) async throws -> DirectoryUser? {
            Self.names.contains(username) ? DirectoryUser(id: username, username: username, displayName: username) : nil
        }

        func users(ids: [String]) async throws -> [DirectoryUser] {
            ids.filter(Self.names.contains).map { DirectoryUser(id: $0, username: $0, displayName: $0) }
        }
    }

    final class Notices: NoticeSink {
        let sent = Mutex<[Notice]>([])
        let live = Mutex<[RealtimeEvent]>([])
        func publish(_ notice: Notice) async { sent.withLock { $0.append(notice) } }
        func publish(_ event: RealtimeEvent) async { live.withLock { $0.append(event) } }
    }

    let database: any MessagingStore
    let notices = Notices()
    let latestPages = KeptAnswers<MessagesController.LatestPage>()
    /// The typing throttle's clock: moved by hand, so a loaded machine cannot stretch two posts past its interval.
    let typingClock = ManualClock()

    init() throws {
        database = try SQLiteMessagingStore(.inMemory)
    }

    func app() -> some ApplicationProtocol {
        let router = ServiceApplication.router(
            metrics: ServiceMetrics(), openAPIDocument: Data("{}".utf8), database: nil)
        let verifier = AccessTokenVerifier { token in
            AccessTokenClaims(
                userID: token, sessionID: "s-\(token)", roles: token == "admin" ? ["admin"] : [], issuedAt: Date(),
                lifetime: 900)
        }
        let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            .group(context: AuthenticatedContext.self)
        let clock = WallClock.system
        ConversationsController(
            store: database, directory: Directory(), social: Graph(), notices: notices, clock: clock
        ).addRoutes(to: signedIn)
        MessagesController(
            store: database, directory: Directory(), social: Graph(),
            events: MessageEvents(sink: notices, directory: Directory()), clock: clock,
            logger: Logger(label: "test"), latestPages: latestPages
        ).addRoutes(to: signedIn)
        TopicsController(store: database, clock: clock).addRoutes(to: signedIn)
        ReactionsController(
            store: database, events: MessageEvents(sink: notices, directory: Directory()), clock: clock
        ).addRoutes(to: signedIn)
        TypingController(
            store: database, events: MessageEvents(sink: notices, directory: Directory()), clock: typingClock.wallClock
        ).addRoutes(to: signedIn)
        MessagingSettingsController(store: database).addRoutes(to: signedIn)
        ChatImagesController(store: database, clock: clock).addRoutes(to: signedIn)
        MessageReportsController(
            store: database, events: MessageEvents(sink: notices, directory: Directory()),
            clock: clock, threshold: 3
        ).addRoutes(to: signedIn)
        return Application(router: router)
    }

    struct Answer {
        var status: HTTPResponse.Status
        var problem: Problem?
    }

    func call(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, as user: String,
        json: String? = nil, headers: HTTPFields = [:]
    ) async throws -> Answer {
        var headers = headers
        headers[.authorization] = "Bearer \(user)"
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            Answer(
                status: response.status,
                problem: response.status.code >= 400
                    ? try? JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView)) : nil)
        }
    }

    func group(_ id: String = "g") async throws {
        _ = try await database.createGroup(id: id, name: "G", by: "ann", members: ["bob", "cat"], now: Date())
    }

    // MARK: Conversations

    @Test func conversationsRefuseOutsidersAndNameBadFields() async throws {
        try await group()
        _ = try await database.openDirect("ann", with: "bob", id: "d", now: Date())
        try await app().test(.router) { client async throws in
            let conversation = MessagingPaths.conversations + "/g"
            #expect(try await call(client, .get, conversation, as: "eve").problem?.code == "not_found")
            #expect(
                try await call(client, .patch, conversation, as: "eve", json: #"{"name":"X"}"#).status == .notFound)
            let empty = try await call(client, .patch, conversation, as: "ann", json: #"{"name":" "}"#)
            #expect(empty.problem?.code == "invalid_name")
            let notAdmin = try await call(client, .patch, conversation, as: "bob", json: #"{"name":"X"}"#)
            #expect(notAdmin.problem?.code == "not_admin")
            #expect(notAdmin.problem?.detail == "Only the group's admins can rename it.")
            let direct = MessagingPaths.conversations + "/d/members"
            #expect(
                try await call(client, .post, direct, as: "ann", json: #"{"userIds":["cat"]}"#).problem?.code
                    == "not_a_group")
            let role = try await call(
                client, .patch, conversation + "/members/bob", as: "ann", json: #"{"role":"owner"}"#)
            #expect(role.problem?.code == "invalid_role")
        }
    }

    @Test func eachProductHasItsRulesAndListsCheckTheirQuery() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let direct = MessagingPaths.direct
            for body in [
                #"{"userId":"bob"}"#, #"{"userId":"bob","product":"WeGroup"}"#, #"{"userId":"bob","product":7}"#,
            ] {
                let answer = try await call(client, .post, direct, as: "ann", json: body)
                #expect(answer.status == .badRequest, "\(body)")
            }
            let missing = try await call(client, .post, direct, as: "ann", json: #"{"userId":"bob"}"#)
            #expect(missing.problem?.code == "invalid_product")
            // eve is nobody's friend: refused in WeGroup, welcome in Getaway; dan blocked ann: unknown in both
            let wegroup = try await call(
                client, .post, direct, as: "ann", json: #"{"userId":"eve","product":"wegroup"}"#)
            #expect(wegroup.problem?.code == "not_friends")
            let getaway = try await call(
                client, .post, direct, as: "ann", json: #"{"userId":"eve","product":"getaway"}"#)
            #expect(getaway.status == .created)
            let blocked = try await call(
                client, .post, direct, as: "ann", json: #"{"userId":"dan","product":"getaway"}"#)
            #expect(blocked.problem?.code == "not_found")
            let blockedGroup = try await call(
                client, .post, MessagingPaths.groups, as: "ann",
                json: #"{"name":"G","product":"getaway","memberIds":["eve","dan"]}"#)
            #expect(blockedGroup.problem?.code == "not_found", "a blocked member reads as an unknown user")
            for query in ["?product=moon", "?limit=0", "?cursor=garbage"] {
                let list = try await call(client, .get, MessagingPaths.conversations + query, as: "ann")
                #expect(list.status == .badRequest, "\(query)")
            }
            #expect(
                try await call(client, .get, MessagingPaths.unread + "?product=moon", as: "ann").status == .badRequest)
            let topics = MessagingPaths.conversations + "/g/topics"
            #expect(try await call(client, .get, topics + "?limit=101", as: "ann").status == .badRequest)
            #expect(try await call(client, .get, topics + "?cursor=garbage", as: "ann").status == .badRequest)
            #expect(try await call(client, .get, topics, as: "eve").status == .notFound)
            let groups = MessagingPaths.users + "/bob/groups"
            #expect(try await call(client, .get, groups + "?limit=0", as: "ann").status == .badRequest)
        }
    }

    @Test func groupsAndDirectConversationsFollowTheSocialGraph() async throws {
        try await app().test(.router) { client async throws in
            let stranger = try await call(
                client, .post, MessagingPaths.groups, as: "ann",
                json: #"{"name":"G","product":"wegroup","memberIds":["bob","eve"]}"#)
            #expect(stranger.status == .forbidden)
            #expect(stranger.problem?.detail == "Only your friends can be added; not friends: eve.")
            let small = try await call(
                client, .post, MessagingPaths.groups, as: "ann",
                json: #"{"name":"G","product":"wegroup","memberIds":["bob","ann"]}"#)
            #expect(small.problem?.code == "invalid_member_ids")
            let me = try await call(
                client, .post, MessagingPaths.direct, as: "ann", json: #"{"userId":"ann","product":"wegroup"}"#)
            #expect(me.problem?.code == "self_conversation")
            let blocked = try await call(
                client, .post, MessagingPaths.direct, as: "ann", json: #"{"userId":"dan","product":"wegroup"}"#)
            #expect(blocked.problem?.code == "not_found", "a block reads as an unknown user")
            let nobody = try await call(
                client, .post, MessagingPaths.direct, as: "ann", json: #"{"product":"getaway"}"#)
            #expect(nobody.problem?.code == "missing_user")
            let groups = try await call(client, .get, MessagingPaths.users + "/eve/groups", as: "ann")
            #expect(groups.problem?.detail == "You can only see the groups of your friends.")
            #expect(
                try await call(client, .get, MessagingPaths.users + "/ann/groups", as: "ann").problem?.code
                    == "self_lookup")
        }
    }

    // MARK: Messages

    @Test func messagesRefuseOutsidersBadKeysAndBadAnchors() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let messages = MessagingPaths.conversations + "/g/messages"
            #expect(try await call(client, .post, messages, as: "eve", json: #"{"text":"hi"}"#).status == .notFound)
            let long = try await call(
                client, .post, messages, as: "ann", json: #"{"text":"hi"}"#,
                headers: [HTTPField.Name("Idempotency-Key")!: String(repeating: "k", count: 256)])
            #expect(long.problem?.code == "invalid_idempotency_key")
            let longest = try await call(
                client, .post, messages, as: "ann", json: #"{"text":"hi"}"#,
                headers: [HTTPField.Name("Idempotency-Key")!: String(repeating: "k", count: 255)])
            #expect(longest.status == .created)
            #expect(
                try await call(client, .get, messages + "?anchor=soon", as: "ann").problem?.code == "invalid_anchor")
            #expect(
                try await call(client, .post, messages, as: "ann", json: #"{"text":""}"#).problem?.code
                    == "invalid_text")
            let search = try await call(client, .get, MessagingPaths.search + "?query=%20", as: "ann")
            #expect(search.problem?.code == "invalid_query")
        }
    }

    @Test func onlyTheSenderEditsAndABlockStopsDirectMessages() async throws {
        try await group()
        let sent = try await database.send(
            NewMessage(
                conversationID: "g", senderID: "ann", text: "hi", topicID: nil, topicName: nil, mentions: [],
                idempotencyKey: nil, now: Date()))
        _ = try await database.openDirect("ann", with: "dan", id: "d", now: Date())
        try await app().test(.router) { client async throws in
            let message = MessagingPaths.conversations + "/g/messages/\(sent.message.id)"
            let edit = try await call(client, .patch, message, as: "bob", json: #"{"text":"mine"}"#)
            #expect(edit.problem?.code == "not_your_message")
            #expect(edit.problem?.detail == "You can only edit your own messages.")
            let blocked = try await call(
                client, .post, MessagingPaths.conversations + "/d/messages", as: "ann", json: #"{"text":"hi"}"#)
            #expect(blocked.problem?.code == "blocked")
        }
    }

    // MARK: The latest page

    struct PageItems: Decodable, Equatable {
        struct Item: Decodable, Equatable {
            var id: Int64
            var text: String
            var topic: String?
        }
        var items: [Item]
    }

    func page(_ client: some TestClientProtocol, _ path: String, as user: String) async throws -> (
        status: HTTPResponse.Status, body: Data
    ) {
        try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer \(user)"]) { response in
            (response.status, Data(response.body.readableBytesView))
        }
    }

    /// The latest page is answered from the kept pages while nothing in the conversation changed, and shows every kind
    /// of change at once: a new message, an edit, a deletion, the topic renamed. Each time it is the page read afresh
    /// (the oldest-first page holds the same messages while there are fewer than a page), and an outsider still gets
    /// a 404 for a kept page.
    @Test func theLatestPageIsKeptOnlyWhileNothingInTheConversationChanged() async throws {
        try await group()
        try await group("h")
        let topicID = try await database.createTopic("plans", in: "g", by: "ann", now: Date()).topic.id ?? 0
        try await app().test(.router) { client async throws in
            let messages = MessagingPaths.conversations + "/g/messages"
            let latest = messages + "?topicId=\(topicID)"
            var sent: [Int64] = []
            for text in ["one", "two", "three"] {
                try await client.execute(
                    uri: messages, method: .post,
                    headers: [.authorization: "Bearer ann", .contentType: "application/json"],
                    body: ByteBuffer(string: #"{"text":"\#(text)","topicId":\#(topicID)}"#)
                ) { response in
                    #expect(response.status == .created)
                    let id = try JSONDecoder().decode(PageItems.Item.self, from: Data(response.body.readableBytesView))
                        .id
                    sent.append(id)
                }
            }
            /// The latest page as bob reads it, checked against the oldest-first page read past the cache.
            func read() async throws -> [PageItems.Item] {
                let (status, body) = try await page(client, latest, as: "bob")
                #expect(status == .ok)
                let items = try JSONDecoder().decode(PageItems.self, from: body).items
                let (_, fresh) = try await page(client, latest + "&anchor=oldest", as: "bob")
                #expect(try JSONDecoder().decode(PageItems.self, from: fresh).items == items)
                return items
            }
            #expect(try await read().map(\.text) == ["one", "two", "three"])
            let (_, first) = try await page(client, latest, as: "cat")
            #expect(latestPages.hits == 1)
            #expect(try await page(client, latest, as: "eve").status == .notFound)
            let otherTopic = try await database.createTopic("elsewhere", in: "h", by: "ann", now: Date()).topic.id ?? 0
            let foreign = try await page(client, messages + "?topicId=\(otherTopic)", as: "bob")
            #expect(foreign.status == .notFound)
            #expect(try JSONDecoder().decode(Problem.self, from: foreign.body).detail?.contains("topic") == true)
            #expect(try await page(client, latest + "&limit=2", as: "bob").body != first)
            #expect(latestPages.hits == 1)

            _ = try await call(client, .post, messages, as: "bob", json: #"{"text":"four","topicId":\#(topicID)}"#)
            #expect(try await read().map(\.text) == ["one", "two", "three", "four"])
            #expect(
                try await call(client, .patch, messages + "/\(sent[0])", as: "ann", json: #"{"text":"uno"}"#).status
                    == .ok)
            #expect(try await read().map(\.text) == ["uno", "two", "three", "four"])
            #expect(try await call(client, .delete, messages + "/\(sent[1])", as: "ann").status == .noContent)
            #expect(try await read().map(\.text) == ["uno", "three", "four"])
            let rename = try await call(
                client, .patch, MessagingPaths.conversations + "/g/topics/\(topicID)", as: "ann",
                json: #"{"name":"trips"}"#)
            #expect(rename.status == .ok)
            #expect(try await read().map(\.topic) == ["trips", "trips", "trips"])
            let hits = latestPages.hits
            #expect(try await read().count == 3)
            #expect(latestPages.hits == hits + 1)
        }
    }

    // MARK: Topics

    @Test func topicsRefuseOutsidersDirectConversationsAndBadPolicies() async throws {
        try await group()
        _ = try await database.openDirect("ann", with: "bob", id: "d", now: Date())
        let topic = try await database.createTopic("plans", in: "g", by: "ann", now: Date())
        try await app().test(.router) { client async throws in
            let topics = MessagingPaths.conversations + "/g/topics"
            #expect(try await call(client, .get, topics, as: "eve").status == .notFound)
            let direct = try await call(
                client, .post, MessagingPaths.conversations + "/d/topics", as: "ann", json: #"{"name":"x"}"#)
            #expect(direct.problem?.code == "not_a_group")
            let twice = try await call(client, .post, topics, as: "bob", json: #"{"name":"plans"}"#)
            #expect(twice.problem?.detail == "This group already has a topic named 'plans'.")
            let policy = try await call(
                client, .put, topics + "/\(topic.topic.id ?? 0)/policy", as: "bob", json: #"{"policy":"loud"}"#)
            #expect(policy.problem?.code == "invalid_policy")
        }
    }

    // MARK: Errors

    @Test(arguments: [
        (MessagingError.notFound("The topic"), 404, "not_found", "The topic was not found."),
        (
            .invalidField("memberIds", "at most 100 per request."), 400, "invalid_member_ids",
            "memberIds: at most 100 per request."
        ),
        (.selfConversation, 400, "self_conversation", "A direct conversation needs someone else."),
        (.selfLookup, 400, "self_lookup", "Name a friend, not yourself."),
        (.notFriends(["eve", "dan"]), 403, "not_friends", "Only your friends can be added; not friends: eve, dan."),
        (.notFriendsGroups, 403, "not_friends", "You can only see the groups of your friends."),
        (.alreadyMembers(["bob", "cat"]), 409, "already_member", "Already in the group: bob, cat."),
        (.blocked, 403, "blocked", "You cannot send messages to this user."),
        (.notAGroup, 409, "not_a_group", "Direct conversations have no name, topics or member changes."),
        (.notAdmin(action: "remove members"), 403, "not_admin", "Only the group's admins can remove members."),
        (.creatorNotRemovable, 403, "not_admin", "The group's creator cannot be removed."),
        (.creatorStaysAdmin, 403, "not_admin", "The group's creator stays an admin."),
        (.groupFull, 409, "group_full", "A group has at most 1000 members."),
        (.topicExists("plans"), 409, "topic_exists", "This group already has a topic named 'plans'."),
        (.notYourMessage(action: "delete"), 403, "not_your_message", "You can only delete your own messages."),
    ])
    func everyErrorHasItsProblem(error: MessagingError, status: Int, code: String, detail: String) {
        #expect(error.problem.statusCode == status)
        #expect(error.problem.code == code)
        #expect(error.problem.detail == detail)
    }
}
