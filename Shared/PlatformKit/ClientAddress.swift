/// A client's address as the gateway uses it: the text it forwards in `X-Forwarded-For`, and the key its rate limit
/// counts the client under. Made once per connection, or per request behind a trusted proxy.
public struct ClientAddress: Sendable, Equatable {
    /// The address as the services receive it: canonical text, an IPv4-mapped IPv6 address as IPv4.
    public let text: String
    /// The key rate limits count it under (see ``RateLimiter/key(forAddress:)``).
    public let limiterKey: String

    /// The client at `address`.
    public init(_ address: IPAddress) {
        self.text = address.description
        self.limiterKey = address.limiterKey
    }

    /// The client at `text`, a connection's peer address; text that is not an address is kept as given.
    public init(_ text: String) {
        if let address = IPAddress(text) {
            self.init(address)
        } else {
            self.init(text: text, limiterKey: text)
        }
    }

    private init(text: String, limiterKey: String) {
        self.text = text
        self.limiterKey = limiterKey
    }

    /// A connection without an IP peer address.
    public static let unknown = ClientAddress("unknown")
}
