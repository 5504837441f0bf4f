import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Friendship: requests with consent, the friend list and its search, mutual friends, suggestions.
struct FriendsController {
    let store: any SocialStore
    let profiles: ProfileStore
    let notices: SocialNotices
    let members: any ConversationMembers
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(SocialPaths.friendRequests), use: send)
        router.get(RouterPath(SocialPaths.friendRequests), use: requests)
        router.post(RouterPath(SocialPaths.friendRequests + "/:request/:answer"), use: answer)
        router.get(RouterPath(SocialPaths.friends), use: friends)
        router.delete(RouterPath(SocialPaths.friends + "/:user"), use: unfriend)
        router.get(RouterPath(SocialPaths.users + "/:user/mutual-friends"), use: mutual)
        router.get(RouterPath(SocialPaths.users + "/:user/relationship"), use: relationship)
        router.get(RouterPath(SocialPaths.suggestions), use: suggestions)
    }

    /// Sends a friend request; when the other had already asked, both become friends at once.
    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        FriendRequestView
    > {
        let target = try await profiles.userID(
            of: try await request.decode(as: UserTarget.self, context: context).reference())
        let me = context.user.userID
        // Names first: with the outbox the notice is written in the request's own transaction.
        let known = try await profiles.profiles([me, target])
        let name = known[me]?.displayName
        let outcome = try await store.sendFriendRequest(
            from: me, to: target, now: clock.now, notices: notices.friendRequest(to: target, from: name))
        switch outcome {
        case .sent(let row): return EditedResponse(status: .created, response: FriendRequestView(row, known))
        case .becameFriends(let row): return EditedResponse(status: .ok, response: FriendRequestView(row, known))
        }
    }

    /// Pending friend requests to me (`incoming`, the default) or from me (`outgoing`), newest first, a page at
    /// a time.
    @Sendable func requests(_ request: Request, context: AuthenticatedContext) async throws -> Page<
        FriendRequestView
    > {
        let direction = request.uri.queryParameters["direction"].map(String.init) ?? "incoming"
        guard ["incoming", "outgoing"].contains(direction) else {
            throw Problem.invalidField("direction", "must be incoming or outgoing.")
        }
        let page = try request.pageRequest()
        let rows = try await store.pendingRequests(
            of: context.user.userID, incoming: direction == "incoming",
            after: try page.decodeCursor(as: String.self), limit: page.limit + 1)
        let known = try await profiles.profiles(
            Array(Set(rows.prefix(page.limit).flatMap { [$0.senderId, $0.recipientId] })))
        return Page(fetched: rows.map { FriendRequestView($0, known) }, limit: page.limit) { $0.id }
    }

    /// `accept` or `decline` (the recipient), `cancel` (the sender).
    @Sendable func answer(_ request: Request, context: AuthenticatedContext) async throws -> FriendRequestView {
        guard let answer = FriendRequestAnswer(rawValue: try context.parameters.require("answer")) else {
            throw Problem(
                status: 404, code: "no_route", title: "Not found", detail: "Answer with accept, decline or cancel.")
        }
        let me = context.user.userID
        // My name first when accepting: the sender's notice is written with the answer.
        let name: String? = if answer == .accept { try await profiles.displayName(of: me) } else { nil }
        let row = try await store.answer(
            try context.parameters.require("request"), by: me, answer, now: clock.now,
            notices: notices.answered(by: name))
        let known = try await profiles.profiles([row.senderId, row.recipientId])
        return FriendRequestView(row, known)
    }

    /// My friends, by username; `query` keeps those whose username or display name contains it,
    /// `notInConversation` leaves out the members of a conversation I am in (to add friends to a group).
    @Sendable func friends(_ request: Request, context: AuthenticatedContext) async throws -> Page<UserSummary> {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        let keyword = try query["query"].map { try Validate.text(String($0), field: "query", max: 50) }
        var excluded: [String] = []
        if let conversation = query["notInConversation"].map(String.init) {
            guard (1...64).contains(conversation.count) else {
                throw Problem.invalidField("notInConversation", "must be the id of a conversation you are in.")
            }
            excluded = try await members.memberIDs(of: conversation, viewer: context.user.userID)
        }
        // The search runs on the local copy of profiles (stored when a friendship starts); only the rows
        // of this page are refreshed from identity when stale.
        let rows = try await store.friends(
            of: context.user.userID, matching: keyword, excluding: excluded,
            after: try page.decodeCursor(as: [String].self), limit: page.limit + 1)
        let shown = Array(rows.prefix(page.limit))
        let fresh = try await profiles.profiles(shown.map(\.userId), stored: shown)
        return Page(fetched: rows.map { UserSummary(fresh[$0.userId] ?? $0, id: $0.userId) }, limit: page.limit) {
            [$0.username ?? "", $0.userId]
        }
    }

    @Sendable func unfriend(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.unfriend(context.user.userID, try context.parameters.require("user"))
        return .noContent
    }

    @Sendable func mutual(_ request: Request, context: AuthenticatedContext) async throws -> Page<UserSummary> {
        let ids = try await store.mutualFriends(of: context.user.userID, and: try context.parameters.require("user"))
        let known = try await profiles.profiles(ids)
        return try request.page(
            of: ids.map { UserSummary(known[$0], id: $0) }.sorted { ($0.username ?? "") < ($1.username ?? "") })
    }

    @Sendable func relationship(_ request: Request, context: AuthenticatedContext) async throws -> RelationshipView {
        let other = try context.parameters.require("user")
        let relationship = try await store.relationship(context.user.userID, other)
        return RelationshipView(userId: other, relationship: relationship.flags)
    }

    @Sendable func suggestions(_ request: Request, context: AuthenticatedContext) async throws -> Page<
        SuggestionView
    > {
        let page = try PageRequest(limit: request.uri.queryParameters["limit"].map(String.init), cursor: nil)
        let ranked = try await store.suggestions(for: context.user.userID, limit: page.limit)
        let known = try await profiles.profiles(ranked.map(\.userID))
        // The best `limit`, ranked: suggestions have no next page.
        return Page(
            items: ranked.map {
                SuggestionView(user: UserSummary(known[$0.userID], id: $0.userID), mutualFriends: $0.mutualFriends)
            }, nextCursor: nil)
    }
}
