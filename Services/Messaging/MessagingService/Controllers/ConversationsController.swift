import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Direct and group conversations, the conversation list and per-member settings; their members are
/// ``ConversationMembersController``'s, whose routes it adds.
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
        router.put(RouterPath(one + "/mute"), use: mute)
        router.delete(RouterPath(one + "/mute"), use: unmute)
        router.get(RouterPath(MessagingPaths.unread), use: unread)
        router.get(RouterPath(MessagingPaths.users + "/:user/groups"), use: commonGroups)
        ConversationMembersController(
            store: store, directory: directory, social: social, notices: notices, clock: clock
        ).addRoutes(to: router)
    }

    var details: ConversationDetails { ConversationDetails(store: store, directory: directory) }

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
            return EditedResponse(status: .ok, response: try await details.detail(existing.id, for: me))
        }
        let (conversation, created) = try await store.openDirect(
            me, with: other.id, product: product, id: UUID().uuidString.lowercased(), now: clock.now)
        return EditedResponse(
            status: created ? .created : .ok, response: try await details.detail(conversation.id, for: me))
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
            id: UUID().uuidString.lowercased(), name: name, by: me, members: others, product: product, now: clock.now,
            notices: ChangeNotices(sink: notices) { [GroupNotices.created($0, members: others)] })
        return EditedResponse(status: .created, response: try await details.detail(conversation.id, for: me))
    }

    /// `ids` if the caller may bring them into a conversation of `product` (``GroupInvitation/admitted(_:in:facts:)``).
    private func allowed(_ ids: [String], of me: String, in product: Product) async throws -> [String] {
        try GroupInvitation.admitted(ids, in: product, facts: try await social.relationships(of: me, among: ids))
    }

    // MARK: Reading

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> ConversationView {
        try await details.detail(try context.parameters.require("conversation"), for: context.user.userID)
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
        let profiles = await details.profiles(rows.compactMap(\.otherUserID))
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
        return try await details.detail(id, for: context.user.userID)
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
