import Foundation
import HouseholdService
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

/// A stack with the household service, its notices recorded, and three users.
struct HouseholdWorld {
    let stack: TestStack
    let notices: RecordedNotices
    let ann: TestUser, bob: TestUser, cat: TestUser
    /// The service's background jobs, to run at the manual clock's time.
    let jobs: HouseholdJobs

    var api: APIClient { stack.gateway }

    static func run(_ body: (HouseholdWorld) async throws -> Void) async throws {
        let notices = RecordedNotices()
        let jobs = BuiltJobs()
        try await withTestStack(services: [
            .household: { settings in
                try await buildHouseholdApplication(
                    HouseholdConfiguration(
                        settings: settings, noticeSink: notices, socialGraph: NobodyBlocked(), jobsBuilt: jobs.keep))
            }
        ]) { stack in
            try await body(
                HouseholdWorld(
                    stack: stack, notices: notices, ann: try await stack.register("ann"),
                    bob: try await stack.register("bob"),
                    cat: try await stack.register("cat"), jobs: try #require(jobs.built)))
        }
    }

    /// This stack has no social service: nobody blocked anybody (`HouseholdInvitationTests` has the real one).
    struct NobodyBlocked: SocialRelationshipLookup {
        func relationship(_ a: String, _ b: String) async throws -> SocialFacts {
            SocialFacts(friends: false, blocked: false)
        }
    }

    /// Keeps the jobs the service hands over when it is built.
    final class BuiltJobs: Sendable {
        private let jobs = Mutex<HouseholdJobs?>(nil)
        var built: HouseholdJobs? { jobs.withLock { $0 } }
        @Sendable func keep(_ built: HouseholdJobs) { jobs.withLock { $0 = built } }
    }

    /// Creates a household for `owner` and brings `others` in by invitation; returns its id.
    func household(_ owner: TestUser, with others: [TestUser] = [], timeZone: String = "UTC") async throws -> String {
        let created = try await api.post(
            HouseholdPaths.households, token: owner.accessToken, json: ["name": "Flat 4", "timeZone": timeZone])
        #expect(created.status == 201, "\(created.text)")
        let id = try created.decode(WireHousehold.self).id
        for member in others {
            let invitation = try await api.post(
                "\(HouseholdPaths.households)/\(id)/invitations", token: owner.accessToken,
                json: ["username": member.username])
            let invitationID = try invitation.decode(WireInvitation.self).id
            let accepted = try await api.post(
                "\(HouseholdPaths.households)/invitations/\(invitationID)/accept", token: member.accessToken)
            #expect(accepted.status == 200)
        }
        return id
    }

    func path(_ household: String, _ rest: String = "") -> String { "\(HouseholdPaths.households)/\(household)\(rest)" }

    /// Moves the clock on by whole days; access tokens (15 minutes) would expire, so everyone signs in again.
    func advance(days: Double) async throws {
        stack.clock.advance(by: days * 86_400)
        try await tokens.signIn([ann, bob, cat], via: api)
    }

    /// The user's current access token.
    func token(_ user: TestUser) -> String { tokens.get(user.id) ?? user.accessToken }

    let tokens = TokenBook()
}

/// Access tokens renewed after the clock moved.
final class TokenBook: Sendable {
    private let tokens = Mutex<[String: String]>([:])
    func get(_ id: String) -> String? { tokens.withLock { $0[id] } }
    func set(_ id: String, _ token: String) { tokens.withLock { $0[id] = token } }

    /// Signs `users` in again and keeps their new access tokens.
    func signIn(_ users: [TestUser], via api: APIClient) async throws {
        for user in users {
            let login = try await api.post(
                IdentityPaths.login, json: ["identifier": user.username, "password": user.password])
            set(user.id, try login.decode(SignedIn.self).accessToken)
        }
    }
}

/// The part of a sign-in or refresh answer the worlds need.
struct SignedIn: Decodable {
    var accessToken: String
    var refreshToken: String
}

struct ChoreBody: Encodable, Sendable {
    struct Schedule: Encodable, Sendable {
        var kind: String; var every: Int? = nil; var weekdays: [Int]? = nil; var dayOfMonth: Int? = nil
    }
    struct Assignment: Encodable, Sendable { var kind: String; var assignee: String? = nil; var order: [String]? = nil }
    var name: String
    var points: Int? = nil
    var schedule: Schedule
    var startOn: String? = nil
    var assignment: Assignment
}

@Suite struct HouseholdMembershipTests {
    @Test func creatingInvitingAcceptingAndLeaving() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let mine = try await world.api.get(HouseholdPaths.households + "/mine", token: world.bob.accessToken)
            let members = try mine.decode(WireHousehold.self).members
            #expect(members.map(\.username) == ["ann", "bob"])
            #expect(world.notices.kinds == ["household.invitation", "household.member_joined"])
            #expect(world.notices.all[1].recipients == [world.ann.id])
            // when bob leaves, ann is told
            #expect(try await world.api.post(world.path(id, "/leave"), token: world.bob.accessToken).status == 204)
            #expect(world.notices.all.last?.kind == "household.member_left")
            #expect(world.notices.all.last?.recipients == [world.ann.id])
            #expect(
                try await world.api.get(HouseholdPaths.households + "/mine", token: world.bob.accessToken).status == 404
            )
            // the last member leaving ends the household
            #expect(try await world.api.post(world.path(id, "/leave"), token: world.ann.accessToken).status == 204)
            #expect(try await world.api.get(world.path(id), token: world.ann.accessToken).status == 404)
        }
    }

    @Test func aUserIsInOneHouseholdAtMost() async throws {
        try await HouseholdWorld.run { world in
            let annsHome = try await world.household(world.ann)
            _ = try await world.household(world.bob)
            let second = try await world.api.post(
                HouseholdPaths.households, token: world.ann.accessToken, json: ["name": "Another"])
            #expect(second.status == 409)
            #expect(second.problem?.code == "already_in_household")
            // an invitation to someone already in a household is made as any other (HouseholdInvitationTests)
            let inviteBob = try await world.api.post(
                world.path(annsHome, "/invitations"), token: world.ann.accessToken, json: ["username": "bob"])
            #expect(inviteBob.status == 201)
            let unknown = try await world.api.post(
                world.path(annsHome, "/invitations"), token: world.ann.accessToken, json: ["username": "nobody"])
            #expect(unknown.status == 404)
            let first = try await world.api.post(
                world.path(annsHome, "/invitations"), token: world.ann.accessToken, json: ["username": "cat"])
            #expect(first.status == 201)
            let again = try await world.api.post(
                world.path(annsHome, "/invitations"), token: world.ann.accessToken, json: ["username": "cat"])
            #expect(again.problem?.code == "already_invited")
        }
    }

    @Test func invitationsAreAnsweredOnceAndOnlyByTheInvitee() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann)
            let invitation = try await world.api.post(
                world.path(id, "/invitations"), token: world.ann.accessToken, json: ["username": "bob"])
            let invitationID = try invitation.decode(WireInvitation.self).id
            let pending = try await world.api.get(
                HouseholdPaths.households + "/invitations", token: world.bob.accessToken)
            #expect(try pending.decode(WireItems<WireInvitation>.self).items.first?.householdName == "Flat 4")
            let byCat = try await world.api.post(
                "\(HouseholdPaths.households)/invitations/\(invitationID)/accept", token: world.cat.accessToken)
            #expect(byCat.status == 404)
            #expect(
                try await world.api.post(
                    "\(HouseholdPaths.households)/invitations/\(invitationID)/decline", token: world.bob.accessToken
                ).status == 204)
            let late = try await world.api.post(
                "\(HouseholdPaths.households)/invitations/\(invitationID)/accept", token: world.bob.accessToken)
            #expect(late.status == 409)
            #expect(late.problem?.code == "invitation_not_pending")
            #expect(
                try await world.api.get(HouseholdPaths.households + "/mine", token: world.bob.accessToken).status == 404
            )
        }
    }

    @Test func onlyTheCreatorRemovesMembers() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            let byBob = try await world.api.delete(
                world.path(id, "/members/\(world.cat.id)"), token: world.bob.accessToken)
            #expect(byBob.status == 403)
            #expect(
                try await world.api.delete(world.path(id, "/members/\(world.cat.id)"), token: world.ann.accessToken)
                    .status == 204)
            #expect(Set(world.notices.all.last?.recipients ?? []) == [world.bob.id, world.cat.id])
            #expect(try await world.api.get(world.path(id), token: world.cat.accessToken).status == 404)
        }
    }

    @Test(arguments: [true, false])
    func anInvitationLapsesWhenItsInviterLeaves(removed: Bool) async throws {
        try await HouseholdWorld.run { world in
            // given bob, a member, invited cat
            let id = try await world.household(world.ann, with: [world.bob])
            let invitation = try await world.api.post(
                world.path(id, "/invitations"), token: world.bob.accessToken, json: ["username": "cat"])
            let invitationID = try invitation.decode(WireInvitation.self).id
            // when bob is removed by ann, or leaves
            let gone =
                removed
                ? try await world.api.delete(world.path(id, "/members/\(world.bob.id)"), token: world.ann.accessToken)
                : try await world.api.post(world.path(id, "/leave"), token: world.bob.accessToken)
            #expect(gone.status == 204)
            // then cat no longer sees it and cannot accept it
            let pending = try await world.api.get(
                HouseholdPaths.households + "/invitations", token: world.cat.accessToken)
            #expect(try pending.decode(WireItems<WireInvitation>.self).items.isEmpty)
            let accepted = try await world.api.post(
                "\(HouseholdPaths.households)/invitations/\(invitationID)/accept", token: world.cat.accessToken)
            #expect(accepted.status == 409)
            #expect(accepted.problem?.code == "invitation_not_pending")
            #expect(
                try await world.api.get(HouseholdPaths.households + "/mine", token: world.cat.accessToken).status == 404
            )
            // and ann may invite cat afresh
            let again = try await world.api.post(
                world.path(id, "/invitations"), token: world.ann.accessToken, json: ["username": "cat"])
            #expect(again.status == 201)
        }
    }
}
