import PlatformKit
import ServiceKit

/// What newcomers to a group are told, reported by the write that made them members (``ChangeNotices``).
enum GroupNotices {
    /// The notice to everyone a new group was created with, but its creator.
    static func created(_ group: ConversationRecord, members: [String]) -> Notice {
        Notice(
            recipients: members, kind: "messaging.added_to_group",
            text: "You were added to \(group.name ?? "a group").",
            link: MessagingPaths.conversations + "/" + group.id, idempotencyKey: "group:\(group.id):created")
    }

    /// The notice to those added to a group; none when everyone asked for was already in it.
    static func added(_ added: AddedMembers, to groupID: String) -> [Notice] {
        guard !added.userIDs.isEmpty else { return [] }
        return [
            Notice(
                recipients: added.userIDs, kind: "messaging.added_to_group",
                text: "You were added to \(added.groupName ?? "a group").",
                link: MessagingPaths.conversations + "/" + groupID)
        ]
    }
}
