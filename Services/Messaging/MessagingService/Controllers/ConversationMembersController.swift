import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// A group's members: inviting people in (``GroupInvitation``), roles, removing someone, leaving.
struct ConversationMembersController {
    let store: any MessagingStore
    let directory: any UserDirectory
    let social: any SocialGraph
    let notices: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let one = MessagingPaths.conversations + "/:conversation"
        router.post(RouterPath(one + "/members"), use: addMembers)
        router.patch(RouterPath(one + "/members/:member"), use: setRole)
        router.delete(RouterPath(one + "/members/:member"), use: removeMember)
        router.post(RouterPath(one + "/leave"), use: leave)
    }

    var details: ConversationDetails { ConversationDetails(store: store, directory: directory) }

    struct MembersRequest: Decodable {
        var userIds: [String]
    }

    /// Invites people into a group the caller is in (friends in WeGroup, anyone not blocked in Getaway). Those
    /// already in are skipped and named in the answer's `alreadyMembers`; when nobody named is new, the answer is
    /// 409 `already_member` naming each.
    @Sendable func addMembers(_ request: Request, context: AuthenticatedContext) async throws -> ConversationView {
        let id = try context.parameters.require("conversation")
        let me = context.user.userID
        let input = try await request.decode(as: MembersRequest.self, context: context)
        let invitation = try GroupInvitation(userIDs: input.userIds, by: me)
        // Outsiders and direct conversations are refused before the social graph is asked (404, 409, then 403);
        // the write checks membership again in its transaction, as the graph's answer takes time.
        try await store.requireGroupMember(id, me)
        // Existing members are not asked about: one may be in the group without being the caller's friend.
        let (group, members) = try await store.conversation(id, asMember: me)
        let newcomers = try invitation.newcomers(members: Set(members.map(\.userId)))
        let admitted = try GroupInvitation.admitted(
            newcomers, in: Product(rawValue: group.product) ?? .legacy,
            facts: try await social.relationships(of: me, among: newcomers))
        let added = try await store.addMembers(
            admitted, to: id, by: me, now: clock.now,
            notices: ChangeNotices(sink: notices) { GroupNotices.added($0, to: id) })
        var view = try await details.detail(id, for: me)
        view.alreadyMembers = invitation.alreadyMembers(added: added.userIDs)
        return view
    }

    struct RoleRequest: Decodable {
        var role: String
    }

    @Sendable func setRole(_ request: Request, context: AuthenticatedContext) async throws -> ConversationView {
        let id = try context.parameters.require("conversation")
        let input = try await request.decode(as: RoleRequest.self, context: context)
        let role = try GroupRules.role(input.role)
        try await store.setRole(role, of: try context.parameters.require("member"), in: id, by: context.user.userID)
        return try await details.detail(id, for: context.user.userID)
    }

    @Sendable func removeMember(_ request: Request, context: AuthenticatedContext) async throws
        -> HTTPResponse.Status
    {
        _ = try await store.removeMember(
            try context.parameters.require("member"), from: try context.parameters.require("conversation"),
            by: context.user.userID)
        return .noContent
    }

    @Sendable func leave(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        _ = try await store.removeMember(
            context.user.userID, from: try context.parameters.require("conversation"), by: context.user.userID)
        return .noContent
    }
}
