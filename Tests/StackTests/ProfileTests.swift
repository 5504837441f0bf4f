import Foundation
import PlatformKit
import TestSupport
import Testing

/// Profiles, search and pictures through the gateway.
@Suite struct ProfileTests {
    static let png = TestImages.png(size: 108)
    static let jpeg = TestImages.jpeg(size: 104)

    @Test func editingMyProfileChangesOnlyTheGivenFields() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let edited = try await stack.gateway.patch(
                IdentityPaths.me, token: alice.accessToken, json: ["bio": "Backpacker", "homeCity": "Lisbon"])
            #expect(edited.status == 200)
            let profile = try edited.decode(WireMyProfile.self)
            #expect(profile.bio == "Backpacker")
            #expect(profile.homeCity == "Lisbon")
            #expect(profile.username == "alice")
            let tooLong = try await stack.gateway.patch(
                IdentityPaths.me, token: alice.accessToken, json: ["bio": String(repeating: "b", count: 301)])
            #expect(tooLong.status == 400)
            let me = try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken)
            #expect(try me.decode(WireMyProfile.self).bio == "Backpacker")
        }
    }

    @Test func searchFindsUsernameAndDisplayNamePrefixesPageByPage() async throws {
        try await withTestStack { stack in
            let me = try await stack.register("searcher")
            for name in ["anna", "annabel", "anne", "bob"] { _ = try await stack.register(name) }
            let carol = try await stack.register("carol")
            _ = try await stack.gateway.patch(
                IdentityPaths.me, token: carol.accessToken, json: ["displayName": "Annika C"])
            let first = try await stack.gateway.get(IdentityPaths.users + "?query=ANN&limit=2", token: me.accessToken)
            #expect(first.status == 200)
            let firstPage = try first.decode(WirePage<WirePublicProfile>.self)
            #expect(firstPage.items.map(\.username) == ["anna", "annabel"])
            let cursor = try #require(firstPage.nextCursor)
            let second = try await stack.gateway.get(
                IdentityPaths.users + "?query=ann&limit=2&cursor=\(cursor)", token: me.accessToken)
            let secondPage = try second.decode(WirePage<WirePublicProfile>.self)
            #expect(secondPage.items.map(\.username) == ["anne", "carol"])
            #expect(secondPage.nextCursor == nil)
            // LIKE wildcards are literal
            let wildcard = try await stack.gateway.get(IdentityPaths.users + "?query=%25", token: me.accessToken)
            #expect(try wildcard.decode(WirePage<WirePublicProfile>.self).items.isEmpty)
        }
    }

    @Test func theDirectoryRanksExactThenPrefixThenInfixAndLeavesOutTheCaller() async throws {
        try await withTestStack { stack in
            let me = try await stack.register("meann")
            for name in ["joanne", "annabel", "ann", "hannah", "bob", "zed"] { _ = try await stack.register(name) }
            let bob = try await stack.register("bobby")
            _ = try await stack.gateway.patch(IdentityPaths.me, token: bob.accessToken, json: ["displayName": "ANN"])
            var names: [[String?]] = []
            var cursor: String?
            repeat {
                let response = try await stack.gateway.get(
                    IdentityPaths.users + "?query=Ann&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    token: me.accessToken)
                #expect(response.status == 200)
                let page = try response.decode(WirePage<WirePublicProfile>.self)
                names.append(page.items.map(\.username))
                cursor = page.nextCursor
            } while cursor != nil && names.count < 5
            // Exact (by username or display name), then prefix, then infix; "meann" is the caller.
            #expect(names == [["ann", "bobby"], ["annabel", "hannah"], ["joanne"]])
            // Another caller sees "meann" among the infix matches.
            let other = try await stack.gateway.get(IdentityPaths.users + "?query=ann&limit=10", token: bob.accessToken)
            #expect(
                try other.decode(WirePage<WirePublicProfile>.self).items.map(\.username) == [
                    "ann", "annabel", "hannah", "joanne", "meann",
                ])
        }
    }

    @Test func aPictureIsStoredCheckedAndServedWithAnETag() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let bob = try await stack.register("bob")
            let uploaded = try await stack.gateway.put(
                IdentityPaths.me + "/avatar", token: alice.accessToken, body: Self.png)
            #expect(uploaded.status == 200)
            let url = try #require(try uploaded.decode(WireMyProfile.self).avatarUrl)
            let fetched = try await stack.gateway.get(url, token: bob.accessToken)
            #expect(fetched.status == 200)
            #expect(fetched.body == Self.png)
            #expect(fetched.headers.first(name: "content-type") == "image/png")
            let etag = try #require(fetched.headers.first(name: "etag"))
            let revalidated = try await stack.gateway.get(
                url, token: bob.accessToken, headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
            // replacing it changes the ETag
            _ = try await stack.gateway.put(IdentityPaths.me + "/avatar", token: alice.accessToken, body: Self.jpeg)
            let replaced = try await stack.gateway.get(url, token: bob.accessToken, headers: [("If-None-Match", etag)])
            #expect(replaced.status == 200)
            #expect(replaced.headers.first(name: "content-type") == "image/jpeg")
        }
    }

    @Test func deletingThePictureRemovesIt() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            #expect(
                try await stack.gateway.delete(IdentityPaths.me + "/avatar", token: alice.accessToken).status == 404)
            _ = try await stack.gateway.put(IdentityPaths.me + "/avatar", token: alice.accessToken, body: Self.png)
            #expect(
                try await stack.gateway.delete(IdentityPaths.me + "/avatar", token: alice.accessToken).status == 204)
            #expect(try await stack.gateway.get("/v1/users/\(alice.id)/avatar", token: alice.accessToken).status == 404)
            let me = try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken)
            #expect(try me.decode(WireMyProfile.self).avatarUrl == nil)
        }
    }
}
