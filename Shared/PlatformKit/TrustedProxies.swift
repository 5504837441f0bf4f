/// The proxies whose `X-Forwarded-For` names the client (`TRUSTED_PROXIES`): address ranges, empty by default.
/// The header of any other peer is ignored: a client could write anything in it.
public struct TrustedProxies: Sendable, Hashable {
    /// One range, as in `10.0.0.0/8` or `fd00::/8`.
    public struct Range: Sendable, Hashable {
        /// The range's first address.
        public let network: IPAddress
        /// How many leading bits its addresses share, counted in IPv6 (an IPv4 /8 is a /104 of IPv4-mapped space).
        public let prefixLength: Int

        /// True when `address` is in the range.
        public func contains(_ address: IPAddress) -> Bool {
            network.sharesPrefix(prefixLength, with: address)
        }
    }

    /// A `TRUSTED_PROXIES` entry that is not an address range.
    public struct InvalidEntry: Error, Equatable {
        /// The entry as written.
        public let entry: String
        /// What is wrong with it.
        public let reason: String
    }

    /// The ranges, in the order given.
    public let ranges: [Range]

    /// No proxy is trusted.
    public init() {
        self.ranges = []
    }

    /// Parses comma-separated CIDRs (`10.0.0.0/8, fd00::/8`); a bare address is a range of one.
    public init(parsing list: String) throws(InvalidEntry) {
        var ranges: [Range] = []
        for entry in list.split(separator: ",") {
            let entry = entry.trimmingWhitespace
            guard !entry.isEmpty else { continue }
            ranges.append(try Self.range(entry))
        }
        self.ranges = ranges
    }

    /// True when no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// True when `address` is in one of the ranges.
    public func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client behind `peer`. Only when `peer` is trusted are the `X-Forwarded-For` hops read (every field line
    /// given, each a comma-separated list), from the right: trusted hops are skipped and the first untrusted one is
    /// the client. A hop that is not an address ends the walk: the hop to its right (or the peer) is the client,
    /// since nothing left of it can be believed. When every hop is trusted, the left-most is the client.
    public func client(peer: IPAddress, forwardedFor fields: [String]) -> IPAddress {
        guard contains(peer) else { return peer }
        var client = peer
        for field in fields.reversed() {
            for hop in field.split(separator: ",", omittingEmptySubsequences: false).reversed() {
                let hop = hop.trimmingWhitespace
                // Empty list elements are ignored (RFC 9110, section 5.6.1).
                guard !hop.isEmpty else { continue }
                guard let address = IPAddress(hop) else { return client }
                client = address
                guard contains(address) else { return address }
            }
        }
        return client
    }

    private static func range(_ entry: Substring) throws(InvalidEntry) -> Range {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(parts[0]) else {
            throw InvalidEntry(entry: String(entry), reason: "`\(parts[0])` is not an IPv4 or IPv6 address")
        }
        let offset = network.isIPv4 && !parts[0].contains(":") ? 96 : 0
        var prefixLength = 128
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].allSatisfy(\.isASCIIDigit), let length = Int(parts[1]),
                length <= 128 - offset
            else { throw InvalidEntry(entry: String(entry), reason: "the prefix length must be 0-\(128 - offset)") }
            prefixLength = offset + length
        }
        guard network.masked(to: prefixLength) == network else {
            throw InvalidEntry(entry: String(entry), reason: "it has bits set after its prefix length")
        }
        return Range(network: network, prefixLength: prefixLength)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingWhitespace: Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isWhitespace($0) }) else { return "" }
        return self[start...lastIndex(where: { !isWhitespace($0) })!]
    }
}
