import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Households, their members and invitations, and the activity feed.
struct HouseholdsController {
    let store: any HouseholdStore
    let directory: any UserDirectory
    let social: any SocialRelationshipLookup
    let notices: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(HouseholdPaths.households), use: create)
        router.get(RouterPath(HouseholdPaths.households + "/mine"), use: mine)
        router.get(RouterPath(HouseholdPaths.households + "/invitations"), use: invitations)
        router.post(RouterPath(HouseholdPaths.households + "/invitations/:invitation/accept"), use: accept)
        router.post(RouterPath(HouseholdPaths.households + "/invitations/:invitation/decline"), use: decline)
        router.get(RouterPath(HouseholdPaths.households + "/:household"), use: show)
        router.post(RouterPath(HouseholdPaths.households + "/:household/invitations"), use: invite)
        router.post(RouterPath(HouseholdPaths.households + "/:household/leave"), use: leave)
        router.delete(RouterPath(HouseholdPaths.households + "/:household/members/:member"), use: removeMember)
        router.get(RouterPath(HouseholdPaths.households + "/:household/activity"), use: activity)
    }

    struct CreateRequest: Decodable {
        var name: String
        /// An IANA time zone; chores fall due on days in it.
        var timeZone: String?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        HouseholdView
    > {
        let input = try await request.decode(as: CreateRequest.self, context: context)
        let name = try Validate.text(input.name, field: "name", max: 60)
        let timeZone = input.timeZone ?? "UTC"
        guard TimeZoneNames.isValid(timeZone) else {
            throw HouseholdError.invalidField("timeZone", "must be an IANA time zone such as Europe/Berlin.")
        }
        let household = HouseholdRecord(
            id: UUID().uuidString.lowercased(), name: name, timeZone: timeZone, createdBy: context.user.userID,
            noteLifetimeDays: 7, createdAt: clock.now)
        try await store.createHousehold(household)
        let view = try await view(
            household,
            members: [
                MemberRecord(householdId: household.id, userId: context.user.userID, joinedAt: household.createdAt)
            ])
        return EditedResponse(status: .created, response: view)
    }

    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> HouseholdView {
        guard let (household, members) = try await store.household(of: context.user.userID) else {
            throw HouseholdError.notFound("Your household")
        }
        return try await view(household, members: members)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> HouseholdView {
        let (household, members) = try await store.household(
            id: try context.parameters.require("household"), asMember: context.user.userID)
        return try await view(household, members: members)
    }

    private func view(_ household: HouseholdRecord, members: [MemberRecord]) async throws -> HouseholdView {
        HouseholdView(household, members: members, profiles: try await directory.users(ids: members.map(\.userId)))
    }

    struct InviteRequest: Decodable {
        var username: String
    }

    /// Invites a user by username. Someone either of the two blocked answers as an unknown user and is sent nothing;
    /// someone already in a household is invited as anyone else (the inviter learns nothing of it) and answers 409
    /// `already_in_household` only themselves, on accepting before they left theirs.
    @Sendable func invite(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        InvitationView
    > {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: InviteRequest.self, context: context)
        let username = try Validate.username(input.username)
        let unknown = HouseholdError.notFound("The user '\(username)'")
        guard let invitee = try await directory.user(username: username) else { throw unknown }
        if invitee.id != context.user.userID,
            try await social.relationship(context.user.userID, invitee.id).blocked
        {
            throw unknown
        }
        let invitation = InvitationRecord(
            id: UUID().uuidString.lowercased(), householdId: householdID, inviterId: context.user.userID,
            inviteeId: invitee.id, status: "pending", createdAt: clock.now)
        let household = try await store.invite(
            invitation,
            notices: ChangeNotices(sink: notices) { household in
                [
                    Notice(
                        recipients: [invitation.inviteeId], kind: "household.invitation",
                        text: "You are invited to join \(household.name).",
                        link: HouseholdPaths.households + "/invitations")
                ]
            })
        return EditedResponse(status: .created, response: Self.view(invitation, householdName: household.name))
    }

    static func view(_ invitation: InvitationRecord, householdName: String) -> InvitationView {
        InvitationView(
            id: invitation.id, householdId: invitation.householdId, householdName: householdName,
            inviterId: invitation.inviterId, inviteeId: invitation.inviteeId, status: invitation.status,
            createdAt: invitation.createdAt)
    }

    @Sendable func invitations(_ request: Request, context: AuthenticatedContext) async throws -> Page<
        InvitationView
    > {
        let pending = try await store.pendingInvitations(for: context.user.userID)
        return try request.page(of: pending.map { Self.view($0.0, householdName: $0.1.name) })
    }

    @Sendable func accept(_ request: Request, context: AuthenticatedContext) async throws -> HouseholdView {
        guard
            let (household, members) = try await store.respond(
                to: try context.parameters.require("invitation"), as: context.user.userID, accept: true, now: clock.now,
                notices: told(except: context.user.userID) { joined in
                    joined.map { household, members in
                        (
                            members.map(\.userId), "household.member_joined",
                            "A new roommate joined \(household.name).",
                            household.id
                        )
                    }
                })
        else { throw HouseholdError.notFound("The invitation") }
        return try await view(household, members: members)
    }

    @Sendable func decline(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        _ = try await store.respond(
            to: try context.parameters.require("invitation"), as: context.user.userID, accept: false, now: clock.now)
        return .noContent
    }

    /// Leaves the household; everyone left is told.
    @Sendable func leave(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let householdID = try context.parameters.require("household")
        _ = try await store.removeMember(
            context.user.userID, from: householdID, by: context.user.userID, now: clock.now,
            notices: told(except: context.user.userID) { remaining in
                (remaining, "household.member_left", "A roommate left the household.", householdID)
            })
        return .noContent
    }

    /// Removes another member (the household's creator only); everyone, the removed member included, is told.
    @Sendable func removeMember(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let householdID = try context.parameters.require("household")
        let member = try context.parameters.require("member")
        _ = try await store.removeMember(
            member, from: householdID, by: context.user.userID, now: clock.now,
            notices: told(except: context.user.userID) { remaining in
                (
                    remaining + [member], "household.member_removed", "A roommate was removed from the household.",
                    householdID
                )
            })
        return .noContent
    }

    @Sendable func activity(_ request: Request, context: AuthenticatedContext) async throws -> Page<ActivityView> {
        let rows = try await store.activity(
            of: try context.parameters.require("household"), asMember: context.user.userID)
        return try request.page(
            of:
                rows.map {
                    ActivityView(
                        id: $0.id ?? 0, kind: $0.kind, actorId: $0.actorId, subject: $0.subject, createdAt: $0.createdAt
                    )
                })
    }

    /// A membership change's notice (`kind` with `text`, linking the household) to the members `notice` names from
    /// the stored change, but `userID`; none when it names none.
    private func told<Change: Sendable>(
        except userID: String,
        _ notice: @escaping @Sendable (Change) -> (members: [String], kind: String, text: String, householdID: String)?
    ) -> ChangeNotices<Change> {
        ChangeNotices(sink: notices) { change in
            guard let told = notice(change) else { return [] }
            let recipients = LiveUpdates.others(told.members, than: userID)
            guard !recipients.isEmpty else { return [] }
            return [
                Notice(
                    recipients: recipients, kind: told.kind, text: told.text,
                    link: HouseholdPaths.households + "/" + told.householdID)
            ]
        }
    }
}
