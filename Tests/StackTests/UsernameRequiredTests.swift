import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// An account that has not chosen a username cannot be found, so nobody could tell who it is: until it chooses one
/// it reads its own data, and every social, messaging, geo, pack, habit and household write is refused.
@Suite struct UsernameRequiredTests {
    @Test func withoutAUsernameAnAccountReadsButWritesNothingUntilItChoosesOne() async throws {
        try await ProductStack.run { stack in
            let api = stack.gateway
            let ann = try await stack.register("ann")
            // given a newcomer from Google, who has no username yet
            let signedIn = try await api.post(
                IdentityPaths.oidc, json: try await stack.googleIDToken(subject: "g-1", email: "new@gmail.com"))
            let session = try signedIn.decode(WireTokenPair.self)
            #expect(session.user.needsUsername == true)
            let token = session.accessToken
            // then reads of their own data answer
            for path in [
                SocialPaths.friends, MessagingPaths.conversations, GeoPaths.pins, HabitsPaths.habits,
                HabitsPaths.today, IdentityPaths.me, HouseholdPaths.households + "/settings",
            ] {
                let read = try await api.get(path, token: token)
                #expect(read.status == 200, "\(path): \(read.text)")
            }
            // and every write in the product services is refused, before it is read
            let writes: [(HTTPMethod, String, [String: String])] = [
                (.POST, SocialPaths.friendRequests, ["username": ann.username]),
                (.POST, SocialPaths.follows, ["username": ann.username]),
                (.PUT, SocialPaths.blocks + "/\(ann.id)", [:]),
                (.POST, MessagingPaths.direct, ["userId": ann.id, "product": "getaway"]),
                (.POST, MessagingPaths.groups, ["name": "Trip"]),
                (.POST, GeoPaths.pins, ["placeName": "Paris"]),
                (.POST, GeoPaths.packs, ["name": "Crew"]),
                (.POST, HabitsPaths.habits, ["title": "Run"]),
                (.POST, HouseholdPaths.households, ["name": "Flat", "timeZone": "UTC"]),
                (.PATCH, HouseholdPaths.households + "/settings", ["boardBackground": "cork"]),
            ]
            for (method, path, body) in writes {
                let refused = try await api.send(method, path, token: token, json: body)
                #expect(refused.status == 403, "\(method) \(path): \(refused.text)")
                #expect(refused.problem?.code == "username_required", "\(method) \(path)")
            }
            // nothing reached anyone
            let requests = try await api.get(SocialPaths.friendRequests, token: ann.accessToken)
            #expect(try requests.decode(WirePage<WireFriendRequest>.self).items.isEmpty)
            // when they choose a username and refresh their access token
            #expect(
                try await api.patch(IdentityPaths.me, token: token, json: ["username": "globetrotter"]).status == 200)
            let refreshed = try await api.post(IdentityPaths.refresh, json: ["refreshToken": session.refreshToken])
            let named = try refreshed.decode(WireTokenPair.self).accessToken
            // then the same write goes through
            let request = try await api.post(SocialPaths.friendRequests, token: named, json: ["username": ann.username])
            #expect(request.status == 201, "\(request.text)")
            #expect(
                try await api.post(HouseholdPaths.households, token: named, json: ["name": "Flat", "timeZone": "UTC"])
                    .status == 201)
            // and an account that registered with a username never meets the rule
            #expect(
                try await api.post(
                    HabitsPaths.habits, token: ann.accessToken,
                    json: HabitBody(title: "Run", reason: "fit", weekdays: HabitBody.everyDay)
                )
                .status == 201)
        }
    }
}
