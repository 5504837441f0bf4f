import NIOCore

/// Reads a service's HTTP/1.1 responses off its connection, one at a time, for the relay to the client.
///
/// The gateway reads its own services' answers itself rather than through NIO's decoder and encoder: those built
/// an `HTTPResponseHead` with a `String` per header field only for the encoder to write the same bytes again,
/// the largest share of the gateway's CPU after the kernel's (docs/architecture.md, "Why the hot paths look this way").
/// The head is kept as the service's bytes with the few facts the relay needs; bodies come out de-chunked, as
/// slices of what was read. Client requests are still parsed by NIO (llhttp): they come from anyone, these
/// answers only from the platform's own services.
struct UpstreamResponseParser {
    enum Event {
        case head(UpstreamResponseHead)
        case body(ByteBuffer)
        case end
    }

    enum State: Equatable {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        /// No framing: the body runs until the service closes the connection.
        case untilClose
        case ending
        case done
    }

    private(set) var state = State.head
    /// A response to `HEAD` has no body whatever its head says.
    let respondingToHEAD: Bool
    private var trailerBytes = 0
    /// How much of a head still arriving was searched for its end already (a head cut into many reads is not
    /// searched from its start again each time).
    private var headSearched = 0

    static let maximumHeadBytes = 64 << 10
    static let maximumLineBytes = 4 << 10

    init(respondingToHEAD: Bool) {
        self.respondingToHEAD = respondingToHEAD
    }

    /// The next event from `buffer`, consuming what it used; `nil` when more bytes are needed (or after the end).
    mutating func next(_ buffer: inout ByteBuffer) throws(UpstreamProtocolError) -> Event? {
        while true {
            switch state {
            case .head:
                guard let length = Self.lengthOfHead(in: buffer, from: headSearched) else {
                    guard buffer.readableBytes <= Self.maximumHeadBytes else { throw .headTooLarge }
                    headSearched = buffer.readableBytes
                    return nil
                }
                headSearched = 0
                let head = try UpstreamResponseHead(bytes: buffer.readSlice(length: length)!)
                // Interim answers (100 Continue, 103 Early Hints) are not relayed: the gateway reads the body itself.
                if head.status < 200 && head.status != 101 { continue }
                switch Self.bodyFraming(of: head, respondingToHEAD: respondingToHEAD) {
                case .none, .length(0): state = .ending
                case .length(let length): state = .fixed(remaining: length)
                case .chunked: state = .chunkSize
                case .untilClose: state = .untilClose
                }
                return .head(head)
            case .fixed(let remaining):
                guard buffer.readableBytes > 0 else { return nil }
                let length = min(remaining, buffer.readableBytes)
                state = length == remaining ? .ending : .fixed(remaining: remaining - length)
                return .body(buffer.readSlice(length: length)!)
            case .chunkSize:
                guard let line = try Self.line(from: &buffer) else { return nil }
                let size = try Self.chunkSize(line)
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                guard buffer.readableBytes > 0 else { return nil }
                let length = min(remaining, buffer.readableBytes)
                state = length == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - length)
                return .body(buffer.readSlice(length: length)!)
            case .chunkDataEnd:
                guard buffer.readableBytes >= 2 else { return nil }
                guard buffer.readInteger(as: UInt16.self) == 0x0D0A else { throw .badChunk }
                state = .chunkSize
            case .trailers:
                // Trailer fields are dropped: the gateway relays none.
                guard let line = try Self.line(from: &buffer) else { return nil }
                trailerBytes += line.readableBytes + 2
                guard trailerBytes <= Self.maximumHeadBytes else { throw .headTooLarge }
                if line.readableBytes == 0 { state = .ending }
            case .untilClose:
                guard buffer.readableBytes > 0 else { return nil }
                return .body(buffer.readSlice(length: buffer.readableBytes)!)
            case .ending:
                state = .done
                return .end
            case .done:
                return nil
            }
        }
    }

    /// How a response's body is framed.
    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    /// The framing of the body after `head`: none for `HEAD`, 101, 204 and 304 whatever the head says.
    static func bodyFraming(of head: UpstreamResponseHead, respondingToHEAD: Bool) -> BodyFraming {
        if respondingToHEAD || head.status == 101 || head.status == 204 || head.status == 304 { return .none }
        if head.chunked { return .chunked }
        if let length = head.contentLength { return .length(length) }
        return .untilClose
    }

    /// The body ran until the connection closed; at its close, the response is complete.
    var endsAtClose: Bool { state == .untilClose }

    /// The length of the head at the start of `buffer`, through its empty line; `nil` if it has not all arrived.
    /// The first `searched` bytes held no end of a head.
    static func lengthOfHead(in buffer: ByteBuffer, from searched: Int = 0) -> Int? {
        buffer.withUnsafeReadableBytes { bytes in
            // An end may straddle what was searched and what is new.
            var index = max(3, searched)
            while index < bytes.count {
                // Steps of up to four: only a LF at index can end "\r\n\r\n".
                let byte = bytes[index]
                if byte == 0x0A {
                    if bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
                        return index + 1
                    }
                    index += 2
                } else if byte == 0x0D {
                    index += 1
                } else {
                    index += 4
                }
            }
            return nil
        }
    }

    /// One CRLF-terminated line (without its CRLF), consumed; `nil` if it has not all arrived.
    static func line(from buffer: inout ByteBuffer) throws(UpstreamProtocolError) -> ByteBuffer? {
        guard let newline = buffer.readableBytesView.firstIndex(of: 0x0A) else {
            guard buffer.readableBytes <= maximumLineBytes else { throw .badChunk }
            return nil
        }
        let length = newline - buffer.readerIndex
        guard length >= 1, buffer.getInteger(at: newline - 1, as: UInt8.self) == 0x0D else { throw .badChunk }
        let line = buffer.readSlice(length: length - 1)!
        buffer.moveReaderIndex(forwardBy: 2)
        return line
    }

    /// A chunk-size line: hex digits, then optional extensions after `;`, which are ignored.
    static func chunkSize(_ line: ByteBuffer) throws(UpstreamProtocolError) -> Int {
        var size = 0
        var digits = 0
        for byte in line.readableBytesView {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A") + 10)
            case UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"):
                guard digits > 0 else { throw .badChunk }
                return size
            default: throw .badChunk
            }
            digits += 1
            // Fifteen hex digits stay below 2^60: no overflow, and no real chunk is that large.
            guard digits <= 15 else { throw .badChunk }
            size = size << 4 | value
        }
        guard digits > 0 else { throw .badChunk }
        return size
    }
}

/// A service's answer that the gateway cannot read as HTTP/1.1: relayed as a 502, and the connection closed.
enum UpstreamProtocolError: Error {
    case headTooLarge
    case badStatusLine
    case badField
    case badContentLength
    case badChunk
    /// Both `Content-Length` and `Transfer-Encoding` (RFC 9112 §6.1: a sender must not send both): relaying
    /// either framing could desynchronise the client from the gateway, so the answer is refused.
    case conflictingFraming
}

/// A service's response head: its bytes as sent, and what the relay needs to know about them.
struct UpstreamResponseHead {
    /// From the status line through the empty line.
    let bytes: ByteBuffer
    let status: Int
    /// The minor version of the service's HTTP/1.x.
    let minorVersion: Int
    let contentLength: Int?
    let chunked: Bool
    /// The service closes the connection after this response.
    let closesConnection: Bool
    /// A `Connection` or `Keep-Alive` field: hop-by-hop, not relayed.
    let hasHopByHopFields: Bool
    /// How many `X-Request-Id` fields the service sent (services echo the gateway's one).
    let requestIDCount: Int
    /// Where the last `X-Request-Id` value is in `bytes`, from its reader index.
    private let requestIDRange: Range<Int>?

    /// The value of the (last) `X-Request-Id` field.
    var requestID: ByteBuffer? {
        requestIDRange.map { bytes.getSlice(at: bytes.readerIndex + $0.lowerBound, length: $0.count)! }
    }

    /// Whether the service's `X-Request-Id` is exactly `id` and the only one.
    func echoes(requestID id: String) -> Bool {
        guard requestIDCount == 1, let range = requestIDRange else { return false }
        return bytes.withUnsafeReadableBytes { raw in raw[range].elementsEqual(id.utf8) }
    }

    /// Reads `bytes`, a whole head ending in an empty line, in one pass over the raw bytes.
    init(bytes: ByteBuffer) throws(UpstreamProtocolError) {
        self.bytes = bytes
        let fields = bytes.withUnsafeReadableBytes { Fields(raw: $0) }
        if let failure = fields.failure { throw failure }
        status = fields.status
        minorVersion = fields.minorVersion
        contentLength = fields.contentLength
        chunked = fields.chunked
        closesConnection = fields.closes || !(fields.minorVersion == 1 || fields.keepAlive)
        hasHopByHopFields = fields.hopByHop
        requestIDCount = fields.requestIDCount
        requestIDRange = fields.requestIDRange
    }

    /// The facts of a head, read from its bytes.
    private struct Fields {
        var failure: UpstreamProtocolError?
        var status = 0
        var minorVersion = 1
        var contentLength: Int?
        var chunked = false
        var transferEncoding = false
        var closes = false
        var keepAlive = false
        var hopByHop = false
        var requestIDCount = 0
        var requestIDRange: Range<Int>?

        init(raw: UnsafeRawBufferPointer) {
            // "HTTP/1.x NNN" at least.
            guard raw.count >= 12, raw[0..<7].elementsEqual("HTTP/1.".utf8), raw[7] == 0x30 || raw[7] == 0x31,
                raw[8] == 0x20, raw[9...11].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else {
                failure = .badStatusLine
                return
            }
            minorVersion = raw[7] == 0x31 ? 1 : 0
            status = raw[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard let statusEnd = HeadBytes.lineEnd(raw, from: 0) else {
                failure = .badStatusLine
                return
            }
            let wellFormed = HeadBytes.forEachField(raw, from: statusEnd + 2) { name, value, _ in
                read(raw, name: name, value: value)
                return failure == nil
            }
            if failure == nil && !wellFormed { failure = .badField }
            if failure == nil && transferEncoding && contentLength != nil { failure = .conflictingFraming }
        }

        mutating func read(_ raw: UnsafeRawBufferPointer, name: Range<Int>, value: Range<Int>) {
            switch name.count {
            case 10 where HeadBytes.matches(raw, name, "connection"):
                hopByHop = true
                for token in HeadBytes.tokens(raw, value) {
                    if HeadBytes.matches(raw, token, "close") { closes = true }
                    if HeadBytes.matches(raw, token, "keep-alive") { keepAlive = true }
                }
            case 10 where HeadBytes.matches(raw, name, "keep-alive"):
                hopByHop = true
            case 12 where HeadBytes.matches(raw, name, "x-request-id"):
                requestIDCount += 1
                requestIDRange = value
            case 14 where HeadBytes.matches(raw, name, "content-length"):
                guard (1...18).contains(value.count), raw[value].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return failure = .badContentLength
                }
                let length = raw[value].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                if let earlier = contentLength, earlier != length { return failure = .badContentLength }
                contentLength = length
            case 17 where HeadBytes.matches(raw, name, "transfer-encoding"):
                // Chunked is the last coding when present; any other coding alone runs until close.
                transferEncoding = true
                chunked = HeadBytes.tokens(raw, value).last.map { HeadBytes.matches(raw, $0, "chunked") } ?? false
            default: break
            }
        }
    }
}

/// A head's bytes read in place: lines, fields, tokens and names as ranges of offsets into the raw bytes.
enum HeadBytes {
    /// Calls `body` with the name, the value without surrounding spaces, and the whole line (with its CRLF) of
    /// each field from `start` to the empty line, while `body` returns true; false when a line has no CRLF, no
    /// colon or no name.
    static func forEachField(
        _ raw: UnsafeRawBufferPointer, from start: Int,
        _ body: (_ name: Range<Int>, _ value: Range<Int>, _ line: Range<Int>) -> Bool
    ) -> Bool {
        var start = start
        while true {
            guard let end = lineEnd(raw, from: start) else { return false }
            if end == start { return true }  // the empty line
            guard let colon = raw[start..<end].firstIndex(of: UInt8(ascii: ":")), colon > start else { return false }
            guard body(start..<colon, trimmed(raw, colon + 1..<end), start..<end + 2) else { return true }
            start = end + 2
        }
    }

    /// The index of the CR ending the line that starts at `start`; `nil` at the end or at a bare LF.
    static func lineEnd(_ raw: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let newline = raw[start...].firstIndex(of: 0x0A), newline > start, raw[newline - 1] == 0x0D
        else { return nil }
        return newline - 1
    }

    static func trimmed(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && (raw[lower] == 0x20 || raw[lower] == 0x09) { lower += 1 }
        while upper > lower && (raw[upper - 1] == 0x20 || raw[upper - 1] == 0x09) { upper -= 1 }
        return lower..<upper
    }

    /// The comma-separated tokens of a value, trimmed.
    static func tokens(_ raw: UnsafeRawBufferPointer, _ value: Range<Int>) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var start = value.lowerBound
        for index in value where raw[index] == UInt8(ascii: ",") {
            tokens.append(trimmed(raw, start..<index))
            start = index + 1
        }
        tokens.append(trimmed(raw, start..<value.upperBound))
        return tokens
    }

    /// Whether the bytes in `range` equal `lowercase` ignoring ASCII case (see ``HeaderName``).
    static func matches(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for offset in 0..<range.count where raw[range.lowerBound + offset] | 0x20 != expected[offset] {
            return false
        }
        return true
    }
}
