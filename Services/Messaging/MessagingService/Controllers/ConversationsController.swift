import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Direct and group conversations, their members, the conversation list and per-member settings.
struct ConversationsController {
    let store: any MessagingStore
    let directory: any UserDirectory
    let social: any SocialGraph
    let notices: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let one = MessagingPaths.conversations + "/:conversation"
        router.get(RouterPath(MessagingPaths.conversations), use: list)
        router.post(RouterPath(MessagingPaths.direct), use: openDirect)
        router.post(RouterPath(MessagingPaths.groups), use: createGroup)
        router.get(RouterPath(one), use: show)
        router.patch(RouterPath(one), use: rename)
        router.post(RouterPath(one + "/members"), use: addMembers)
        router.patch(RouterPath(one + "/members/:member"), use: setRole)
        router.delete(RouterPath(one + "/members/:member"), use: removeMember)
        router.post(RouterPath(one + "/leave"), use: leave)
        router.put(RouterPath(one + "/mute"), use: mute)
        router.delete(RouterPath(one + "/mute"), use: unmute)
        router.get(RouterPath(MessagingPaths.unread), use: unread)
        router.get(RouterPath(MessagingPaths.users + "/:user/groups"), use: commonGroups)
    }

    // MARK: Creating

    struct DirectRequest: Decodable {
        var userId: String?
        var username: String?
        var product: String?
    }

    /// Opens the direct conversation with a user in the app the client names: the existing one (200) or a new
    /// one (201). A block either way reads like an unknown user. In WeGroup a new one needs a friendship (an
    /// existing one stays usable after unfriending); in Getaway anyone not blocked may be messaged.
    @Sendable func openDirect(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        ConversationView
    > {
        let input = try await request.decode(as: DirectRequest.self, context: context)
        let product = try Product.parse(input.product)
        let me = context.user.userID
        let other: DirectoryUser?
        if let username = input.username {
            other = try await directory.user(username: try Validate.username(username))
        } else if let userID = input.userId, !userID.isEmpty, userID.count <= 100 {
            other = try await directory.users(ids: [userID]).first
        } else {
            throw Problem.badRequest("missing_user", "Name the other person by userId or username.")
        }
        guard let other else { throw MessagingError.notFound("The user") }
        try GroupRules.requireSomeoneElse(other.id, me: me)
        let facts = try await social.relationship(me, other.id)
        try GroupRules.requireVisible(blocked: facts.blocked)
        if product == .wegroup, !facts.friends {
            guard let existing = try await store.existingDirect(me, with: other.id, product: product) else {
                throw MessagingError.notFriends([other.id])
            }
            return EditedResponse(status: .ok, response: try await detail(existing.id, for: me))
        }
        let (conversation, created) = try await store.openDirect(
            me, with: other.id, product: product, id: UUID().uuidString.lowercased(), now: clock.now)
        return EditedResponse(
            status: created ? .created : .ok, response: try await detail(conversation.id, for: me))
    }

    struct GroupRequest: Decodable {
        var name: String
        var memberIds: [String]
        var product: String?
    }

    /// Creates a group with a name and at least two others: the creator's friends in WeGroup, anyone not blocked
    /// either way in Getaway.
    @Sendable func createGroup(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        ConversationView
    > {
        let input = try await request.decode(as: GroupRequest.self, context: context)
        let product = try Product.parse(input.product)
        let me = context.user.userID
        let name = try Validate.text(input.name, field: "name", max: MessagingLimits.maximumNameLength)
        let others = try await allowed(
            try GroupRules.invitees(input.memberIds, except: me, field: "memberIds"), of: me, in: product)
        try GroupRules.requireEnoughMembers(others)
        let conversation = try await store.createGroup(
            id: UUID().uuidString.lowercased(), name: name, by: me, members: others, product: product, now: clock.now)
        await notices.publish(
            Notice(
                recipients: others, kind: "messaging.added_to_group", text: "You were added to \(name).",
                link: MessagingPaths.conversations + "/" + conversation.id,
                idempotencyKey: "group:\(conversation.id):created"))
        return EditedResponse(status: .created, response: try await detail(conversation.id, for: me))
    }

    /// `ids` if the caller may bring them into a conversation of `product`: friends in WeGroup (else 403
    /// `not_friends` naming the others), anyone not blocked either way in Getaway (else 404, as for a stranger).
    private func allowed(_ ids: [String], of me: String, in product: Product) async throws -> [String] {
        guard product == .getaway else { return try await friends(ids, of: me) }
        let facts = try await social.relationships(of: me, among: ids)
        for id in ids { try GroupRules.requireVisible(blocked: facts[id]?.blocked == true) }
        return ids
    }

    /// `ids` if they are all the caller's friends; otherwise a 403 naming those who are not.
    private func friends(_ ids: [String], of me: String) async throws -> [String] {
        let facts = try await social.relationships(of: me, among: ids)
        return try GroupRules.requireFriends(ids, friends: Set(ids.filter { facts[$0]?.friends == true }))
    }

    // MARK: Reading

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> ConversationView {
        try await detail(try context.parameters.require("conversation"), for: context.user.userID)
    }

    /// One conversation with its members' profiles, as its member `userID` sees it.
    private func detail(_ conversationID: String, for userID: String) async throws -> ConversationView {
        let (conversation, members) = try await store.conversation(conversationID, asMember: userID)
        let summary = try await store.conversations(of: userID, at: conversationID)
        let profiles = await self.profiles(members.map(\.userId))
        var view = ConversationView(summary, profiles: profiles)
        view.members = members.map {
            MemberView(
                userId: $0.userId, username: profiles[$0.userId]?.username,
                displayName: profiles[$0.userId]?.displayName ?? "", avatarUrl: profiles[$0.userId]?.avatarUrl,
                role: $0.role, joinedAt: $0.joinedAt)
        }
        view.createdBy = conversation.createdBy
        return view
    }

    /// Profiles by id; an unreachable identity service leaves names empty rather than failing a read.
    private func profiles(_ ids: [String]) async -> [String: DirectoryUser] {
        guard !ids.isEmpty, let users = try? await directory.users(ids: ids) else { return [:] }
        return Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// My conversations, most recent activity first ("users I have messaged previously"); `?product=` for one
    /// app's (optional: without it, every app's).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<ConversationView> {
        let page = try request.pageRequest()
        let cursor = try page.decodeCursor(as: ConversationCursor.self)
        let product = try Product.filter(request.uri.queryParameters.get("product"))
        let rows = try await store.conversations(
            of: context.user.userID, product: product, after: cursor.map { ($0.activity, $0.id) },
            limit: page.limit + 1)
        let profiles = await profiles(rows.compactMap(\.otherUserID))
        let activity = Dictionary(rows.map { ($0.conversation.id, $0.conversation.activity) }) { a, _ in a }
        return Page(fetched: rows.map { ConversationView($0, profiles: profiles) }, limit: page.limit) {
            ConversationCursor(activity: activity[$0.id] ?? 0, id: $0.id)
        }
    }

    struct ConversationCursor: Codable {
        var activity: Int64
        var id: String
    }

    @Sendable func unread(_ request: Request, context: AuthenticatedContext) async throws -> UnreadView {
        let counts = try await store.unreadCounts(
            of: context.user.userID, product: try Product.filter(request.uri.queryParameters.get("product")))
        return UnreadView(
            total: counts.reduce(0) { $0 + $1.unread.total },
            conversations: counts.map { id, count in
                UnreadView.Conversation(
                    conversationId: id, unreadCount: count.total,
                    topics: count.byTopic.sorted { $0.key < $1.key }.map {
                        UnreadView.Topic(topicId: $0.key, unreadCount: $0.value)
                    })
            })
    }

    /// The groups a friend and I are both in (requirement 10: "view groups that a friend is in"), a page at a
    /// time: id, name, member count and last activity, never message text.
    @Sendable func commonGroups(_ request: Request, context: AuthenticatedContext) async throws -> Page<
        FriendGroupView
    > {
        let other = try context.parameters.require("user")
        let me = context.user.userID
        try GroupRules.requireOtherUser(other, me: me)
        let page = try request.pageRequest()
        let cursor = try page.decodeCursor(as: ConversationCursor.self)
        try GroupRules.requireFriend(try await social.relationship(me, other).friends)
        let groups = try await store.commonGroups(
            of: me, and: other, after: cursor.map { ($0.activity, $0.id) }, limit: page.limit + 1)
        let activity = Dictionary(groups.map { ($0.id, $0.activity) }) { a, _ in a }
        return Page(fetched: groups.map(FriendGroupView.init), limit: page.limit) {
            ConversationCursor(activity: activity[$0.id] ?? 0, id: $0.id)
        }
    }

    // MARK: Changing

    struct RenameRequest: Decodable {
        var name: String
    }

    @Sendable func rename(_ request: Request, context: AuthenticatedContext) async throws -> ConversationView {
        let id = try context.parameters.require("conversation")
        let input = try await request.decode(as: RenameRequest.self, context: context)
        let name = try Validate.text(input.name, field: "name", max: MessagingLimits.maximumNameLength)
        try await store.rename(id, to: name, by: context.user.userID)
        return try await detail(id, for: context.user.userID)
    }

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
        let ids = try GroupRules.invitees(input.userIds, except: me, field: "userIds")
        guard !ids.isEmpty else { throw Problem.invalidField("userIds", "name at least one friend.") }
        // Outsiders and direct conversations are refused before the social graph is asked (404, 409, then 403);
        // the write checks membership again in its transaction, as the graph's answer takes time.
        try await store.requireGroupMember(id, me)
        // Existing members are not asked about: one may be in the group without being the caller's friend.
        let (group, members) = try await store.conversation(id, asMember: me)
        let current = Set(members.map(\.userId))
        let newcomers = ids.filter { !current.contains($0) }
        guard !newcomers.isEmpty else { throw MessagingError.alreadyMembers(ids) }
        let product = Product(rawValue: group.product) ?? .legacy
        let added = try await store.addMembers(
            try await allowed(newcomers, of: me, in: product), to: id, by: me, now: clock.now)
        if !added.userIDs.isEmpty {
            await notices.publish(
                Notice(
                    recipients: added.userIDs, kind: "messaging.added_to_group",
                    text: "You were added to \(added.groupName ?? "a group").",
                    link: MessagingPaths.conversations + "/" + id))
        }
        var view = try await detail(id, for: me)
        let addedIDs = Set(added.userIDs)
        view.alreadyMembers = ids.filter { !addedIDs.contains($0) }
        return view
    }

    struct RoleRequest: Decodable {
        var role: String
    }

    @Sendable func setRole(_ request: Request, context: AuthenticatedContext) async throws -> ConversationView {
        let id = try context.parameters.require("conversation")
        let input = try await request.decode(as: RoleRequest.self, context: context)
        guard ["admin", "member"].contains(input.role) else {
            throw Problem.invalidField("role", "must be admin or member.")
        }
        try await store.setRole(
            input.role, of: try context.parameters.require("member"), in: id, by: context.user.userID)
        return try await detail(id, for: context.user.userID)
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

    @Sendable func mute(_ request: Request, context: AuthenticatedContext) async throws -> MuteView {
        try await setMuted(true, context)
    }

    @Sendable func unmute(_ request: Request, context: AuthenticatedContext) async throws -> MuteView {
        try await setMuted(false, context)
    }

    private func setMuted(_ muted: Bool, _ context: AuthenticatedContext) async throws -> MuteView {
        let id = try context.parameters.require("conversation")
        try await store.setMuted(muted, conversation: id, for: context.user.userID)
        return MuteView(conversationId: id, muted: muted)
    }
}
