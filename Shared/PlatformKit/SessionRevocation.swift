import Foundation

/// A session that ended before its access tokens expired, as identity publishes it.
public struct SessionRevocation: Codable, Sendable, Equatable {
    /// Identity's increasing number for the entry: the feed asks for the ones after the last it saw.
    public var sequence: Int64
    /// The ended session (`sid` of its access tokens).
    public var sessionId: String
    /// When the session's last access token expires; after that the entry is not needed any more.
    public var until: Date

    /// Creates an entry from its parts.
    public init(sequence: Int64, sessionId: String, until: Date) {
        self.sequence = sequence
        self.sessionId = sessionId
        self.until = until
    }
}

/// One answer of identity's revocation feed: entries in sequence order, and the highest sequence identity holds.
public struct SessionRevocationPage: Codable, Sendable, Equatable {
    /// The entries after the requested sequence (or every one still in force), oldest first.
    public var items: [SessionRevocation]
    /// The sequence to ask after next.
    public var last: Int64

    /// Creates a page from its parts.
    public init(items: [SessionRevocation], last: Int64) {
        self.items = items
        self.last = last
    }
}
