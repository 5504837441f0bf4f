import Foundation
import ServiceKit

/// The messaging service's storage, whichever database keeps it (``SQLiteMessagingStore``,
/// ``PostgresMessagingStore``): the only place that knows SQL. Each method is one transaction, and every method that
/// touches a conversation checks, in that transaction, that the caller is a member (a 404 for anyone else, so that a
/// conversation's existence is not revealed to outsiders).
protocol MessagingStore: ServiceStore {
    // MARK: Conversations

    /// The conversation and all its members, for a member.
    func conversation(_ id: String, asMember userID: String) async throws -> (ConversationRecord, [MemberRecord])

    /// The conversation, for a member; cheaper than ``conversation(_:asMember:)`` on the send path.
    func conversationRecord(_ id: String, asMember userID: String) async throws -> ConversationRecord

    /// The ids of a conversation's members, for a member.
    func memberIDs(of id: String, asMember userID: String) async throws -> [String]

    /// The member ids of a conversation `viewer` is in, in the order they joined; 404 for anyone else, as for the
    /// public routes.
    func memberIDs(of conversationID: String, viewer: String) async throws -> [String]

    /// The direct conversation of two users in `product`, if they have one.
    func existingDirect(_ userID: String, with otherID: String, product: Product) async throws -> ConversationRecord?

    /// The direct conversation between two users in `product`: the existing one, or a new one (`created`).
    func openDirect(_ userID: String, with otherID: String, product: Product, id: String, now: Date) async throws
        -> (ConversationRecord, created: Bool)

    /// A new group: the creator as its admin, the others as members.
    func createGroup(
        id: String, name: String, by creatorID: String, members: [String], product: Product, now: Date,
        notices: ChangeNotices<ConversationRecord>?
    ) async throws -> ConversationRecord

    /// Renames a group (admins only).
    func rename(_ conversationID: String, to name: String, by userID: String) async throws

    /// Refuses anyone but a member of the group: not found for outsiders, a conflict for a direct conversation.
    func requireGroupMember(_ conversationID: String, _ userID: String) async throws

    /// Adds users to a group (the caller must be in it); returns those who were not members yet.
    func addMembers(
        _ userIDs: [String], to conversationID: String, by userID: String, now: Date,
        notices: ChangeNotices<AddedMembers>?
    ) async throws -> AddedMembers

    /// Takes `memberID` out of a group: themselves (leaving), or an admin removing them; the creator can
    /// only leave. A group whose last admin leaves gets its longest-standing member as admin.
    /// Returns the members who remain.
    func removeMember(_ memberID: String, from conversationID: String, by userID: String) async throws -> [String]

    /// Makes a member an admin or a plain member again (admins only; the creator stays an admin).
    func setRole(_ role: String, of memberID: String, in conversationID: String, by userID: String) async throws

    /// Mutes or unmutes a conversation for the caller.
    func setMuted(_ muted: Bool, conversation conversationID: String, for userID: String) async throws

    /// The groups `userID` and `otherID` are both in, most recent activity first, after the cursor's
    /// `(activity, id)`.
    func commonGroups(of userID: String, and otherID: String, after cursor: (Int64, String)?, limit: Int)
        async throws -> [FriendGroup]

    // MARK: Lists and unread counts

    /// The caller's unread counts in every conversation that has some, most recently active first.
    /// With `product`, only that app's conversations count.
    func unreadCounts(of userID: String, product: Product?) async throws
        -> [(conversationID: String, unread: UnreadCount)]

    /// The caller's conversations, most recent activity first, after the cursor's `(activity, id)`. A direct
    /// conversation nobody has written in yet is listed only for the one who opened it: opening a chat must not
    /// put an empty conversation in the other person's list. With `product`, only that app's conversations.
    func conversations(of userID: String, product: Product?, after cursor: (Int64, String)?, limit: Int)
        async throws -> [ConversationSummary]

    /// One conversation's line of the caller's list; a 404 if they are not in it.
    func conversations(of userID: String, at conversationID: String) async throws -> ConversationSummary

    /// Keyword search over the conversations the caller is a member of, optionally one conversation or one
    /// topic: the newest ``SearchQuery/window`` matches ranked, best first (newest first on ties).
    /// `filter` narrows to a sender, a topic (by name), a time range and messages with images (``SearchOperators``);
    /// with no terms, which only `has:image` allows, the newest messages with images match.
    func search(
        _ terms: [SearchQuery.Term], filter: SearchFilter, for userID: String, conversation conversationID: String?,
        topic topicID: Int64?, offset: Int, limit: Int
    ) async throws -> [SearchHit]

    // MARK: Messages

    /// Stores a message, or answers the one its idempotency key named before; `notices` records the new message's
    /// notices and live event in the same transaction. Its ``NewMessage/imageIDs`` must each be an upload of the
    /// sender's to this conversation that no message carries yet (400 naming `imageIds` otherwise).
    func send(_ new: NewMessage, notices: ChangeNotices<SentMessage>?) async throws -> SentMessage

    /// Replaces the text of the caller's own message (empty only if it has images); returns it and the members to
    /// tell. `notices` records the edit's mention notices and live event in the same transaction.
    func edit(
        _ messageID: Int64, in conversationID: String, by userID: String, text: String, mentions: [String], now: Date,
        notices: ChangeNotices<EditedMessage>?
    ) async throws -> EditedMessage

    /// Deletes the caller's own message; returns the members to tell. `notices` records the deletion's live event in
    /// the same transaction.
    func delete(
        _ messageID: Int64, in conversationID: String, by userID: String, notices: ChangeNotices<DeletedMessage>?
    ) async throws -> DeletedMessage

    /// A page of the conversation (or one topic of it) and the revision it was read at, from one snapshot.
    func messages(
        in conversationID: String, topic topicID: Int64?, asMember userID: String, anchor: MessageAnchor, limit: Int
    ) async throws -> MessageWindow

    /// The revision of a conversation the caller may read, with the same checks (and 404s) as reading a page of it.
    /// The revision changes on every change to the conversation's messages or its topics' names, whichever replica
    /// made it, so every page read at one revision is the same page while the revision stays.
    func revision(of conversationID: String, topic topicID: Int64?, asMember userID: String) async throws -> Int64

    /// Marks everything up to `messageID` read, in the whole conversation or in one topic. Markers only move
    /// forward. Returns the marker and the conversation's unread count afterwards.
    func markRead(_ conversationID: String, upTo messageID: Int64, topic topicID: Int64?, by userID: String)
        async throws -> (lastReadID: Int64, unread: UnreadCount)

    // MARK: Images

    /// Keeps an image a member uploaded to a conversation, in no message yet: until one carries it only they see it.
    /// Refused when they hold ``ChatImages/maximumPending`` such uploads younger than ``ChatImages/pendingLifetime``.
    func addImage(_ image: MessageImage, bytes: StoredBytes, to conversationID: String, by userID: String, now: Date)
        async throws

    /// An image's bytes for a member of its conversation: one of a message they may see, or their own upload not
    /// sent yet; 404 for anything else.
    func image(_ imageID: String, in conversationID: String, asMember userID: String) async throws -> StoredBytes

    /// An image of a message with open reports, for the platform admins deciding on it (they need not be members);
    /// 404 for any other.
    func reportedImage(_ imageID: String, in conversationID: String) async throws -> StoredBytes

    /// Deletes the uploads no message carried that were made before `cutoff`; answers how many.
    func sweepUnsentImages(before cutoff: Date) async throws -> Int

    // MARK: Settings

    /// Whether each user shares read receipts (`true` unless they said otherwise).
    func sharesReadReceipts(_ userIDs: [String]) async throws -> [String: Bool]

    /// Shares or stops sharing the caller's read receipts (and seeing others').
    func setSharesReadReceipts(_ share: Bool, for userID: String) async throws

    // MARK: Reactions

    /// Adds (`adding`) or removes the caller's reaction `emoji` to a message of a conversation they are a member of
    /// (404 otherwise, and for a message hidden from them); doing it twice changes nothing (`changed` false). A new
    /// emoji past ``Reactions/maximumDistinct`` on the message is refused. `notices` records a change's live event in
    /// the same transaction.
    func react(
        _ emoji: String, to messageID: Int64, in conversationID: String, by userID: String, adding: Bool, now: Date,
        notices: ChangeNotices<ReactionChange>?
    ) async throws -> ReactionChange

    // MARK: Topics

    /// A new topic of a group, followed by its creator; a conflict if the group has one of that name
    /// (ASCII case-insensitively).
    func createTopic(_ name: String, in conversationID: String, by userID: String, now: Date) async throws
        -> TopicSummary

    /// A group's topics, those the caller pinned first, then latest message first, after the cursor's
    /// `(pinned, last message id or 0, topic id)`, with the caller's policy and unread count.
    func topics(in conversationID: String, asMember userID: String, after cursor: TopicOrder?, limit: Int)
        async throws -> [TopicSummary]

    /// Pins or unpins a topic for the caller (Zulip's "pin to top" is each member's own); at most
    /// ``MessagingLimits/maximumPinnedTopics`` pinned per group.
    func setTopicPinned(_ pinned: Bool, topic topicID: Int64, in conversationID: String, for userID: String)
        async throws

    /// Renames and/or resolves a topic; any member may (Zulip's default). Its id, messages and everyone's
    /// read state stay as they are.
    func updateTopic(_ topicID: Int64, in conversationID: String, by userID: String, name: String?, resolved: Bool?)
        async throws

    /// Sets the caller's policy for a topic.
    func setTopicPolicy(_ policy: TopicPolicy, topic topicID: Int64, in conversationID: String, for userID: String)
        async throws

    // MARK: Reports

    /// Files `reporter`'s report of someone else's message in a conversation they are a member of (404 otherwise,
    /// and for a message hidden from them). A second open report by them of the message answers the first
    /// (`created` false). Once `threshold` distinct members have open reports, the message is hidden from everyone
    /// but its sender.
    func reportMessage(
        _ messageID: Int64, in conversationID: String, by reporter: String, reason: MessageReports.Reason,
        note: String?, threshold: Int, now: Date
    ) async throws -> (report: MessageReportRecord, created: Bool)

    /// Messages with open reports that still exist, a page (`limit`) at a time after `cursor`.
    func messageReportQueue(order: MessageReports.QueueOrder, after cursor: MessageReportCursor?, limit: Int)
        async throws -> [(cursor: MessageReportCursor, item: ReportedMessage)]

    /// An admin's decision on a message's open reports (404 when it has none): `keep` shows it again, `remove`
    /// deletes it; the reports record who decided and when. Answers the message as it was and the members to tell.
    /// `notices` records a removal's notice and live event in the same transaction (a keep has none).
    func decideMessageReports(
        on messageID: Int64, _ decision: MessageReports.Decision, by admin: String, now: Date,
        notices: ChangeNotices<DeletedMessage>?
    ) async throws -> (item: ReportedMessage, members: [String])
}

extension MessagingStore {
    func send(_ new: NewMessage) async throws -> SentMessage {
        try await send(new, notices: nil)
    }

    func edit(
        _ messageID: Int64, in conversationID: String, by userID: String, text: String, mentions: [String], now: Date
    ) async throws -> EditedMessage {
        try await edit(
            messageID, in: conversationID, by: userID, text: text, mentions: mentions, now: now, notices: nil)
    }

    func delete(_ messageID: Int64, in conversationID: String, by userID: String) async throws -> DeletedMessage {
        try await delete(messageID, in: conversationID, by: userID, notices: nil)
    }

    func react(
        _ emoji: String, to messageID: Int64, in conversationID: String, by userID: String, adding: Bool, now: Date
    ) async throws -> ReactionChange {
        try await react(emoji, to: messageID, in: conversationID, by: userID, adding: adding, now: now, notices: nil)
    }

    func decideMessageReports(on messageID: Int64, _ decision: MessageReports.Decision, by admin: String, now: Date)
        async throws -> (item: ReportedMessage, members: [String])
    {
        try await decideMessageReports(on: messageID, decision, by: admin, now: now, notices: nil)
    }

    func openDirect(_ userID: String, with otherID: String, id: String, now: Date) async throws
        -> (ConversationRecord, created: Bool)
    {
        try await openDirect(userID, with: otherID, product: .legacy, id: id, now: now)
    }

    func createGroup(id: String, name: String, by creatorID: String, members: [String], now: Date) async throws
        -> ConversationRecord
    {
        try await createGroup(id: id, name: name, by: creatorID, members: members, product: .legacy, now: now)
    }

    func createGroup(id: String, name: String, by creatorID: String, members: [String], product: Product, now: Date)
        async throws -> ConversationRecord
    {
        try await createGroup(
            id: id, name: name, by: creatorID, members: members, product: product, now: now, notices: nil)
    }

    func addMembers(_ userIDs: [String], to conversationID: String, by userID: String, now: Date) async throws
        -> AddedMembers
    {
        try await addMembers(userIDs, to: conversationID, by: userID, now: now, notices: nil)
    }

    func unreadCounts(of userID: String) async throws -> [(conversationID: String, unread: UnreadCount)] {
        try await unreadCounts(of: userID, product: nil)
    }

    func conversations(of userID: String, after cursor: (Int64, String)?, limit: Int) async throws
        -> [ConversationSummary]
    {
        try await conversations(of: userID, product: nil, after: cursor, limit: limit)
    }

    func search(
        _ terms: [SearchQuery.Term], for userID: String, conversation conversationID: String?, topic topicID: Int64?,
        offset: Int, limit: Int
    ) async throws -> [SearchHit] {
        try await search(
            terms, filter: .none, for: userID, conversation: conversationID, topic: topicID, offset: offset,
            limit: limit)
    }

    func topics(in conversationID: String, asMember userID: String) async throws -> [TopicSummary] {
        try await topics(in: conversationID, asMember: userID, after: nil, limit: .max)
    }

    /// One topic as the caller sees it.
    func topic(_ topicID: Int64, in conversationID: String, asMember userID: String) async throws -> TopicSummary {
        try await topics(in: conversationID, asMember: userID).first { $0.topic.id == topicID }
            ?? { throw MessagingError.notFound("The topic") }()
    }
}
