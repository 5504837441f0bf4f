/// What a client may ask of a page of messages: where it starts and which topic it reads.
enum MessageQuery {
    /// Where a page starts (`?anchor=`): `newest` (the default), `oldest`, `first_unread` or a message id.
    static func anchor(_ value: String?) throws(MessagingError) -> MessageAnchor {
        switch value {
        case nil, "newest": return .newest
        case "oldest": return .oldest
        case "first_unread": return .firstUnread
        case let value?:
            guard let id = Int64(value), id > 0 else {
                throw .invalidField("anchor", "must be newest, oldest, first_unread or a message id.")
            }
            return .around(id)
        }
    }

    /// One topic's messages only (`?topicId=`): a topic's id, which is positive.
    static func topicID(_ value: Substring?) throws(MessagingError) -> Int64? {
        guard let value else { return nil }
        guard let id = Int64(String(value)), id > 0 else { throw .invalidField("topicId", "must be a topic's id.") }
        return id
    }
}
