import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// An account that has not chosen a username cannot be found, so nobody could tell who it is: it keeps its own
/// habits, household, pins and packs, but cannot be found in the directory, befriend or follow anyone, or talk in
/// conversations until it chooses one; the username counts from the very next request.
@Suite struct UsernameRequiredTests {
    @Test func withoutAUsernameAnAccountKeepsItsOwnThingsButMeetsNobody() async throws {
        try await ProductStack.run { stack in
            let api = stack.gateway
            let ann = try await stack.register("ann")
            // given a newcomer from Google, who has no username yet
            let signedIn = try await api.post(
                IdentityPaths.oidc, json: try await stack.googleIDToken(subject: "g-1", email: "new@gmail.com"))
            let session = try signedIn.decode(WireTokenPair.self)
            #expect(session.user.needsUsername == true)
            let token = session.accessToken
            // then the habit tracker, RooMate and Getaway work for them
            let habit = try await api.post(
                HabitsPaths.habits, token: token,
                json: HabitBody(title: "Run", reason: "fit", weekdays: HabitBody.everyDay))
            #expect(habit.status == 201, "\(habit.text)")
            let pin = try await api.post(
                GeoPaths.pins, token: token, json: GeoWorld.NewPin(latitude: 48.85, longitude: 2.35, placeName: "Paris")
            )
            #expect(pin.status == 201, "\(pin.text)")
            let pack = try await api.send(
                .POST, GeoPaths.packs, token: token, json: GeoWorld.NewPack(name: "Night owls"),
                headers: GeoWorld.atCampus())
            #expect(pack.status == 201, "\(pack.text)")
            let created = try await api.post(
                HouseholdPaths.households, token: token, json: ["name": "Flat", "timeZone": "UTC"])
            #expect(created.status == 201, "\(created.text)")
            // and their household shows them by display name to whoever joins
            let household = try created.decode(WireHousehold.self)
            let invited = try await api.post(
                HouseholdPaths.households + "/\(household.id)/invitations", token: token,
                json: ["username": ann.username])
            #expect(invited.status == 201, "\(invited.text)")
            let invitation = try invited.decode(WireInvitation.self)
            #expect(
                try await api.post(
                    HouseholdPaths.households + "/invitations/\(invitation.id)/accept", token: ann.accessToken
                ).status == 200)
            let seen = try await api.get(HouseholdPaths.households + "/\(household.id)", token: ann.accessToken)
            let newcomer = try #require(
                try seen.decode(WireHousehold.self).members.first { $0.userId == session.user.id })
            #expect(newcomer.username == nil && newcomer.displayName == "Test Traveller")
            // but nobody finds them in the directory
            let found = try await api.get(IdentityPaths.users + "?query=Traveller", token: ann.accessToken)
            #expect(found.status == 200)
            #expect(!found.text.contains(session.user.id))
            // and every social and messaging write is refused, before it is read
            let writes: [(HTTPMethod, String, [String: String])] = [
                (.POST, SocialPaths.friendRequests, ["username": ann.username]),
                (.POST, SocialPaths.friendRequests + "/no-such-request/accept", [:]),
                (.POST, SocialPaths.follows, ["username": ann.username]),
                (.POST, SocialPaths.followRequests + "/\(ann.id)/approve", [:]),
                (.POST, MessagingPaths.direct, ["userId": ann.id, "product": "getaway"]),
                (.POST, MessagingPaths.groups, ["name": "Trip"]),
                (.POST, MessagingPaths.conversations + "/no-such-conversation/messages", ["text": "hi"]),
            ]
            for (method, path, body) in writes {
                let refused = try await api.send(method, path, token: token, json: body)
                #expect(refused.status == 403, "\(method) \(path): \(refused.text)")
                #expect(refused.problem?.code == "username_required", "\(method) \(path)")
            }
            // nothing reached anyone
            let requests = try await api.get(SocialPaths.friendRequests, token: ann.accessToken)
            #expect(try requests.decode(WirePage<WireFriendRequest>.self).items.isEmpty)
        }
    }

    /// The answer to choosing a first username carries an access token without `needs_username`, and the app's
    /// very next request uses it; the token held before keeps the claim until it expires.
    @Test func aChosenUsernameCountsFromTheNextRequest() async throws {
        try await ProductStack.run { stack in
            let api = stack.gateway
            let ann = try await stack.register("ann")
            let signedIn = try await api.post(
                IdentityPaths.oidc, json: try await stack.googleIDToken(subject: "g-2", email: "next@gmail.com"))
            let before = try signedIn.decode(WireTokenPair.self).accessToken
            let chosen = try await api.patch(IdentityPaths.me, token: before, json: ["username": "globetrotter"])
            #expect(chosen.status == 200)
            let named = try #require(chosen.object["accessToken"] as? String, "\(chosen.text)")
            #expect(chosen.object["tokenType"] as? String == "Bearer")
            #expect(chosen.object["needsUsername"] as? Bool == false)
            // as an app would, right after the PATCH
            let request = try await api.post(SocialPaths.friendRequests, token: named, json: ["username": ann.username])
            #expect(request.status == 201, "\(request.text)")
            let stale = try await api.post(MessagingPaths.groups, token: before, json: ["name": "Trip"])
            #expect(stale.problem?.code == "username_required")
            // a later profile change hands out no token: the account already had its username
            let renamed = try await api.patch(IdentityPaths.me, token: named, json: ["bio": "Always away"])
            #expect(renamed.status == 200 && renamed.object["accessToken"] == nil)
            // and an account that registered with a username never meets the rule
            let annAsks = try await api.post(
                SocialPaths.follows, token: ann.accessToken, json: ["username": "globetrotter"])
            #expect(annAsks.status == 201 || annAsks.status == 200, "\(annAsks.text)")
        }
    }
}
