import Foundation
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// The directory says how each person stands to me, in the words the relationship route uses, and leaves out
/// whoever blocked me.
@Suite struct DirectoryRelationTests {
    @Test func eachEntrySaysHowThatPersonStandsToMeAndWhoBlockedMeIsLeftOut() async throws {
        try await withTestStack(services: [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) }
        ]) { stack in
            let api = stack.gateway
            let me = try await stack.register("club_me")
            var users: [String: TestUser] = [:]
            for name in [
                "friend", "asked", "asks", "followed", "follower", "pending", "wants", "blockee", "blocker", "none",
            ] {
                users[name] = try await stack.register("club_\(name)")
            }
            func user(_ name: String) -> TestUser { users[name]! }
            func post(_ path: String, _ by: TestUser, _ body: [String: String] = [:]) async throws -> APIResponse {
                try await api.post(path, token: by.accessToken, json: body)
            }
            // a friend
            let request = try await post(SocialPaths.friendRequests, me, ["userId": user("friend").id])
            _ = try await post(
                "\(SocialPaths.friendRequests)/\(try request.decode(WireCreated.self).id)/accept", user("friend"))
            // friend requests both ways, waiting
            _ = try await post(SocialPaths.friendRequests, me, ["userId": user("asked").id])
            _ = try await post(SocialPaths.friendRequests, user("asks"), ["userId": me.id])
            // follows both ways, approved and waiting
            _ = try await post(SocialPaths.follows, me, ["username": user("followed").username])
            _ = try await post("\(SocialPaths.followRequests)/\(me.id)/approve", user("followed"))
            _ = try await post(SocialPaths.follows, user("follower"), ["username": me.username])
            _ = try await post("\(SocialPaths.followRequests)/\(user("follower").id)/approve", me)
            _ = try await post(SocialPaths.follows, me, ["username": user("pending").username])
            _ = try await post(SocialPaths.follows, user("wants"), ["username": me.username])
            // blocks both ways
            #expect(
                try await api.send(.PUT, "\(SocialPaths.blocks)/\(user("blockee").id)", token: me.accessToken).status
                    == 204)
            #expect(
                try await api.send(.PUT, "\(SocialPaths.blocks)/\(me.id)", token: user("blocker").accessToken).status
                    == 204)

            // when I search the directory, a page at a time
            var entries: [WirePublicProfile] = []
            var cursor: String?
            repeat {
                let page = try await api.get(
                    IdentityPaths.users + "?query=club_&limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    token: me.accessToken
                ).decode(WirePage<WirePublicProfile>.self)
                entries += page.items
                cursor = page.nextCursor
            } while cursor != nil
            // then: everyone but me and the one who blocked me, each saying how they stand to me
            let flags = Dictionary(
                uniqueKeysWithValues: entries.map { ($0.username ?? "", $0.relationship?.names ?? ["?"]) })
            #expect(
                flags == [
                    "club_friend": ["friend"], "club_asked": ["friendRequestSent"],
                    "club_asks": ["friendRequestReceived"], "club_followed": ["following"],
                    "club_follower": ["followedBy"], "club_pending": ["followRequestSent"],
                    "club_wants": ["followRequestReceived"], "club_blockee": ["blocked"], "club_none": [],
                ])
            // the relationship route says the same, in the same words
            for entry in entries {
                let view = try await api.get("\(SocialPaths.users)/\(entry.id)/relationship", token: me.accessToken)
                #expect(
                    try view.decode(WireRelationshipView.self).relationship == entry.relationship,
                    "\(entry.username ?? "")")
            }
            // the one who blocked me sees me with nothing: no sign of why
            let theirs = try await api.get(IdentityPaths.users + "?query=club_me", token: user("blocker").accessToken)
            #expect(
                try theirs.decode(WirePage<WirePublicProfile>.self).items.map(\.relationship?.names) == [["blocked"]])
        }
    }

    /// The habit tracker's "see the other users of the app" (UC 04.01): without a query the directory lists everyone
    /// a page at a time by username, leaving out me, accounts without a username, and anyone blocked either way.
    @Test func withoutAQueryTheDirectoryListsEveryoneIMayMeetByUsername() async throws {
        try await withTestStack(services: [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) }
        ]) { stack in
            let api = stack.gateway
            let me = try await stack.register("mia")
            var users: [String: TestUser] = [:]
            for name in ["zoe", "adam", "blockee", "blocker", "carl", "friend", "lena"] {
                users[name] = try await stack.register(name)
            }
            // someone from Google who has not chosen a username
            let newcomer = try await api.post(
                IdentityPaths.oidc, json: try await stack.googleIDToken(subject: "g-browse", email: "n@gmail.com"))
            #expect(newcomer.status == 200 || newcomer.status == 201, "\(newcomer.text)")
            let request = try await api.post(
                SocialPaths.friendRequests, token: me.accessToken, json: ["userId": users["friend"]!.id])
            _ = try await api.post(
                "\(SocialPaths.friendRequests)/\(try request.decode(WireCreated.self).id)/accept",
                token: users["friend"]!.accessToken, json: [String: String]())
            #expect(
                try await api.send(.PUT, "\(SocialPaths.blocks)/\(users["blockee"]!.id)", token: me.accessToken).status
                    == 204)
            #expect(
                try await api.send(.PUT, "\(SocialPaths.blocks)/\(me.id)", token: users["blocker"]!.accessToken)
                    .status == 204)

            var pages: [[WirePublicProfile]] = []
            var cursor: String?
            repeat {
                let answer = try await api.get(
                    IdentityPaths.users + "?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: me.accessToken)
                #expect(answer.status == 200, "\(answer.text)")
                let page = try answer.decode(WirePage<WirePublicProfile>.self)
                pages.append(page.items)
                cursor = page.nextCursor
            } while cursor != nil && pages.count < 10
            let seen = pages.flatMap { $0 }
            #expect(seen.map(\.username) == ["adam", "carl", "friend", "lena", "zoe"])
            #expect(pages.allSatisfy { $0.count <= 2 })
            #expect(seen.first { $0.username == "friend" }?.relationship?.names == ["friend"])
            #expect(seen.first { $0.username == "adam" }?.relationship?.names == [])
            // the one who blocked me browses without me, and a cursor no page made is refused
            let theirs = try await api.get(IdentityPaths.users + "?limit=100", token: users["blocker"]!.accessToken)
            #expect(!(try theirs.decode(WirePage<WirePublicProfile>.self).items.contains { $0.id == me.id }))
            let forged = try await api.get(IdentityPaths.users + "?cursor=%21%21", token: me.accessToken)
            #expect(forged.problem?.code == "invalid_cursor")
        }
    }
}
