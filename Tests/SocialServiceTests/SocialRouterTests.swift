import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import SocialService

/// The controllers' edge cases through the router: who may answer what, fields named in the client's words,
/// and each refusal's status and code.
@Suite struct SocialRouterTests {
    struct Directory: UserDirectory {
        let users = [
            DirectoryUser(id: "u-ann", username: "ann", displayName: "Ann"),
            DirectoryUser(id: "u-bob", username: "bob", displayName: "Bob"),
            DirectoryUser(id: "u-cat", username: "cat", displayName: "Cat"),
        ]
        func user(username: String) async throws -> DirectoryUser? { users.first { $0.username == username } }
        func users(ids: [String]) async throws -> [DirectoryUser] { users.filter { ids.contains($0.id) } }
    }

    final class Notices: NoticeSink {
        let sent = Mutex<[Notice]>([])
        func publish(_ notice: Notice) async { sent.withLock { $0.append(notice) } }
    }

    static let internalToken = "router-test-internal-token"

    func app(_ tokens: RouterTestTokens, notices: Notices = Notices()) async throws -> some ApplicationProtocol {
        try await buildSocialApplication(
            SocialConfiguration(
                settings: ServiceSettings(service: .social, database: .inMemory, internalToken: Self.internalToken),
                noticeSink: notices, userDirectory: Directory(), verifier: tokens.verifier))
    }

    @Test func aFriendRequestNamesItsUserInTheClientsWords() async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            for (body, status, code) in [
                ("{}", 400, "missing_user"), (#"{"username":"x"}"#, 400, "invalid_username"),
                (#"{"username":"nobody"}"#, 404, "not_found"), (#"{"userId":"u-ann"}"#, 400, "self_request"),
            ] {
                let problem = try await client.problem(.post, SocialPaths.friendRequests, ann, body)
                #expect(problem.statusCode == status && problem.code == code, "\(body)")
            }
            let direction = try await client.problem(.get, SocialPaths.friendRequests + "?direction=sideways", ann)
            #expect(direction.code == "invalid_direction" && direction.detail?.hasPrefix("direction:") == true)
        }
    }

    @Test func onlyTheRecipientAnswersAndOnlyOnce() async throws {
        let tokens = await RouterTestTokens()
        let notices = Notices()
        try await app(tokens, notices: notices).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let bob = try await tokens.headers("u-bob")
            let cat = try await tokens.headers("u-cat")
            let sent = try await client.execute(
                uri: SocialPaths.friendRequests, method: .post, headers: ann,
                body: ByteBuffer(string: #"{"username":"bob"}"#))
            #expect(sent.status == .created)
            struct Sent: Decodable { var id: String }
            let id = try JSONDecoder().decode(Sent.self, from: Data(sent.body.readableBytesView)).id
            #expect(notices.sent.withLock { $0.map(\.kind) } == ["social.friend_request"])
            let again = try await client.problem(.post, SocialPaths.friendRequests, ann, #"{"userId":"u-bob"}"#)
            #expect(again.code == "request_pending")
            // Neither a stranger nor the sender may accept it; it reads as unknown to them.
            for other in [cat, ann] {
                let refused = try await client.problem(.post, SocialPaths.friendRequests + "/\(id)/accept", other)
                #expect(refused.statusCode == 404 && refused.detail == "The friend request was not found.")
            }
            let unknownAnswer = try await client.problem(.post, SocialPaths.friendRequests + "/\(id)/maybe", bob)
            #expect(unknownAnswer.code == "no_route")
            let accepted = try await client.execute(
                uri: SocialPaths.friendRequests + "/\(id)/accept", method: .post, headers: bob)
            #expect(accepted.status == .ok)
            let twice = try await client.problem(.post, SocialPaths.friendRequests + "/\(id)/decline", bob)
            #expect(twice.code == "request_not_pending" && twice.detail == "The friend request was already accepted.")
            let friends = try await client.problem(.post, SocialPaths.friendRequests, bob, #"{"username":"ann"}"#)
            #expect(friends.code == "already_friends")
            #expect(notices.sent.withLock { $0.map(\.kind) } == ["social.friend_request", "social.friend_accepted"])
        }
    }

    @Test func followsAndBlocksRefuseWhatTheRulesRefuse() async throws {
        let tokens = await RouterTestTokens()
        let notices = Notices()
        try await app(tokens, notices: notices).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let bob = try await tokens.headers("u-bob")
            let cat = try await tokens.headers("u-cat")
            let followed = try await client.execute(
                uri: SocialPaths.follows, method: .post, headers: ann, body: ByteBuffer(string: #"{"userId":"u-bob"}"#))
            #expect(followed.status == .created)
            #expect(String(buffer: followed.body).contains(#""followRequestSent":true"#))
            #expect(
                try await client.problem(.post, SocialPaths.follows, ann, #"{"userId":"u-bob"}"#).code
                    == "follow_pending")
            #expect(
                try await client.problem(.post, SocialPaths.follows, ann, #"{"userId":"u-ann"}"#).code == "self_follow")
            // The waiting follow request reads from each side by its direction.
            for (viewer, other, sent) in [(ann, "u-bob", true), (bob, "u-ann", false)] {
                let seen = String(
                    buffer: try await client.execute(
                        uri: SocialPaths.users + "/\(other)/relationship", method: .get, headers: viewer
                    ).body)
                #expect(seen.contains(#""followRequestSent":\#(sent)"#))
                #expect(seen.contains(#""followRequestReceived":\#(!sent)"#))
            }
            // Only the followee approves: cat has no request from ann.
            let approve = try await client.problem(.post, SocialPaths.followRequests + "/u-ann/approve", cat)
            #expect(approve.detail == "The follow request was not found.")
            // Without an outbox the stored request's notice went to the sink after it; the refused ones sent none.
            #expect(notices.sent.withLock { $0.map(\.kind) } == ["social.follow_request"])
            #expect(try await client.problem(.put, SocialPaths.blocks + "/u-ann", ann).code == "self_block")
            #expect(
                try await client.problem(.delete, SocialPaths.blocks + "/u-cat", ann).detail
                    == "The block was not found.")
            let blocked = try await client.execute(uri: SocialPaths.blocks + "/u-ann", method: .put, headers: bob)
            #expect(blocked.status == .noContent)
            // Blocked: ann sees bob as unknown and not connected, bob sees the block.
            #expect(try await client.problem(.post, SocialPaths.follows, ann, #"{"userId":"u-bob"}"#).statusCode == 404)
            let seen = try await client.execute(
                uri: SocialPaths.users + "/u-bob/relationship", method: .get, headers: ann)
            #expect(!String(buffer: seen.body).contains(#""blocked":true"#))
            let mine = try await client.execute(
                uri: SocialPaths.users + "/u-ann/relationship", method: .get, headers: bob)
            #expect(String(buffer: mine.body).contains(#""blocked":true"#))
        }
    }

    @Test(arguments: [
        SocialPaths.friendRequests, SocialPaths.friendRequests + "?direction=outgoing", SocialPaths.followRequests,
        SocialPaths.followers, SocialPaths.following, SocialPaths.blocks,
    ])
    func everyListRefusesABadPage(path: String) async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let joiner = path.contains("?") ? "&" : "?"
            for limit in ["0", "101", "-1", "99999999999999999999", "x"] {
                #expect(try await client.problem(.get, path + joiner + "limit=" + limit, ann).code == "invalid_limit")
            }
            // A cursor no list made, and one of the right encoding but the wrong shape for this list.
            let forged = [
                "not-a-cursor", PageCursor.encode(["a", "b", "c"]), PageCursor.encode(42),
                PageCursor.encode("u-bob") + "!",
            ]
            for cursor in forged {
                #expect(
                    try await client.problem(.get, path + joiner + "cursor=" + cursor, ann).code == "invalid_cursor")
            }
            let empty = try await client.execute(uri: path, method: .get, headers: ann)
            #expect(empty.status == .ok)
            #expect(String(buffer: empty.body).contains(#""items":[]"#))
        }
    }

    @Test func internalRoutesNeedTheCredentialAndBothUsers() async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let service: HTTPFields = [HTTPField.Name(PlatformHeaders.internalToken)!: Self.internalToken]
            let anonymous = try await client.execute(uri: SocialPaths.internalRelationship + "?a=x&b=y", method: .get)
            #expect(anonymous.status == .forbidden)
            #expect(
                try await client.problem(.get, SocialPaths.internalRelationship + "?a=x", service).code
                    == "missing_users")
            let many = #"{"viewer":"x","others":[\#((0...10_000).map { "\"\($0)\"" }.joined(separator: ","))]}"#
            #expect(
                try await client.problem(.post, SocialPaths.internalRelationships, service, many).code
                    == "invalid_others")
        }
    }

    @Test(arguments: [
        (SocialError.notFound("The user"), 404, "not_found", "The user was not found."),
        (.missingUser, 400, "missing_user", "Name the user by userId or username."),
        (.selfRequest, 400, "self_request", "You cannot send a friend request to yourself."),
        (.selfFollow, 400, "self_follow", "You cannot follow yourself."),
        (.selfBlock, 400, "self_block", "You cannot block yourself."),
        (.alreadyFriends, 409, "already_friends", "You are already friends."),
        (.requestPending, 409, "request_pending", "Your friend request is already waiting for an answer."),
        (.alreadyFollowing, 409, "already_following", "You already follow this user."),
        (.followPending, 409, "follow_pending", "Your follow request is already waiting for approval."),
        (
            .requestNotPending(status: "declined"), 409, "request_not_pending",
            "The friend request was already declined."
        ),
    ])
    func eachRefusalHasItsAnswer(error: SocialError, status: Int, code: String, detail: String) {
        #expect(error.problem.statusCode == status)
        #expect(error.problem.code == code)
        #expect(error.problem.detail == detail)
    }
}
