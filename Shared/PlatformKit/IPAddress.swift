/// An IPv4 or IPv6 address as 128 bits, an IPv4 address stored IPv4-mapped (`::ffff:a.b.c.d`), so the two
/// spellings of an IPv4 client are one address. Parsed from text a client may have chosen (`X-Forwarded-For`).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The first 64 bits.
    public let high: UInt64
    /// The last 64 bits.
    public let low: UInt64

    /// The address with these bits.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses dotted IPv4 (`192.0.2.7`) or IPv6 text (`2001:db8::7`, `::ffff:192.0.2.7`); `nil` for anything else,
    /// including zones (`%eth0`), brackets and ports.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 45 else { return nil }
        if let ipv4 = Self.ipv4(bytes[...]) {
            self.init(high: 0, low: 0xffff_0000_0000 | UInt64(ipv4))
        } else if let (high, low) = Self.ipv6(bytes) {
            self.init(high: high, low: low)
        } else {
            return nil
        }
    }

    /// True for an IPv4 address (however it was written).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }

    /// Dotted for IPv4, else the canonical IPv6 text of RFC 5952 (lower case, longest run of zero groups as `::`).
    public var description: String {
        if isIPv4 {
            return (0..<4).map { String(low >> (24 - 8 * $0) & 0xff) }.joined(separator: ".")
        }
        let groups = (0..<8).map { UInt16(truncatingIfNeeded: ($0 < 4 ? high : low) >> (48 - 16 * ($0 % 4))) }
        // The longest run of two or more zero groups, the first of equals, is written `::`.
        var run = (start: 0, count: 0)
        var start = 0
        for index in 0...8 where index == 8 || groups[index] != 0 {
            if index - start > run.count, index - start >= 2 { run = (start, index - start) }
            start = index + 1
        }
        let hex = groups.map { String($0, radix: 16) }
        guard run.count > 0 else { return hex.joined(separator: ":") }
        return hex[..<run.start].joined(separator: ":") + "::" + hex[(run.start + run.count)...].joined(separator: ":")
    }

    /// The key a rate limiter counts this client under: an IPv4 address itself, an IPv6 address its /64.
    public var limiterKey: String {
        isIPv4 ? description : masked(to: 64).description + "/64"
    }

    /// True when the first `prefixLength` bits (0-128) of the two addresses are equal.
    public func sharesPrefix(_ prefixLength: Int, with other: IPAddress) -> Bool {
        masked(to: prefixLength) == other.masked(to: prefixLength)
    }

    /// The address with every bit after the first `prefixLength` cleared.
    func masked(to prefixLength: Int) -> IPAddress {
        let highMask: UInt64 = prefixLength >= 64 ? .max : prefixLength <= 0 ? 0 : .max << (64 - prefixLength)
        let lowMask: UInt64 = prefixLength >= 128 ? .max : prefixLength <= 64 ? 0 : .max << (128 - prefixLength)
        return IPAddress(high: high & highMask, low: low & lowMask)
    }

    /// Four decimal octets of one to three digits each.
    static func ipv4(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        var octets = 0
        for part in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard octets < 4, (1...3).contains(part.count), part.allSatisfy({ (48...57).contains($0) }) else {
                return nil
            }
            let octet = part.reduce(0) { $0 * 10 + UInt32($1 - 48) }
            guard octet <= 255 else { return nil }
            value = value << 8 | octet
            octets += 1
        }
        return octets == 4 ? value : nil
    }

    /// Eight groups of one to four hex digits, at most one `::` standing for one or more zero groups, the last
    /// two groups possibly written as dotted IPv4.
    static func ipv6(_ bytes: [UInt8]) -> (UInt64, UInt64)? {
        let colon = UInt8(ascii: ":")
        var before: [UInt16] = []
        var after: [UInt16] = []
        var compressed = false
        var position = 0
        if bytes.starts(with: [colon, colon]) {
            compressed = true
            position = 2
        }
        while position < bytes.count {
            let end = bytes[position...].firstIndex(of: colon) ?? bytes.count
            let part = bytes[position..<end]
            var groups: [UInt16]
            if part.contains(UInt8(ascii: ".")) {
                guard end == bytes.count, let ipv4 = ipv4(part) else { return nil }
                groups = [UInt16(ipv4 >> 16), UInt16(ipv4 & 0xffff)]
            } else {
                guard (1...4).contains(part.count) else { return nil }
                var group: UInt16 = 0
                for byte in part {
                    guard let digit = hexDigit(byte) else { return nil }
                    group = group << 4 | digit
                }
                groups = [group]
            }
            if compressed { after += groups } else { before += groups }
            guard before.count + after.count <= 8 else { return nil }
            position = end + 1
            if position < bytes.count, bytes[position] == colon {
                guard !compressed else { return nil }
                compressed = true
                position += 1
            } else if position == bytes.count, end < bytes.count {
                return nil  // a single trailing colon
            }
        }
        let count = before.count + after.count
        guard compressed ? count <= 7 : count == 8 else { return nil }
        let groups = before + Array(repeating: 0, count: 8 - count) + after
        let high = groups[..<4].reduce(0) { $0 << 16 | UInt64($1) }
        let low = groups[4...].reduce(0) { $0 << 16 | UInt64($1) }
        return (high, low)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
