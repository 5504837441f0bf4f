import Foundation
import PlatformKit
import ServiceKit

/// Reads a conversation as one of its members sees it, with its members' profiles (every answer about one
/// conversation is this view).
struct ConversationDetails {
    let store: any MessagingStore
    let directory: any UserDirectory

    /// One conversation with its members' profiles, as its member `userID` sees it.
    func detail(_ conversationID: String, for userID: String) async throws -> ConversationView {
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
        view.otherLastReadId = try await otherLastReadID(conversation, members: members, for: userID)
        return view
    }

    /// The other person's read marker in a direct conversation, when both share read receipts (WhatsApp's rule:
    /// who does not share does not see).
    private func otherLastReadID(_ conversation: ConversationRecord, members: [MemberRecord], for userID: String)
        async throws -> Int64?
    {
        guard conversation.conversationKind == .direct, let other = members.first(where: { $0.userId != userID })
        else { return nil }
        let shares = try await store.sharesReadReceipts([userID, other.userId])
        return shares.values.allSatisfy { $0 } ? other.lastReadId : nil
    }

    /// Profiles by id; an unreachable identity service leaves names empty rather than failing a read.
    func profiles(_ ids: [String]) async -> [String: DirectoryUser] {
        guard !ids.isEmpty, let users = try? await directory.users(ids: ids) else { return [:] }
        return Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
