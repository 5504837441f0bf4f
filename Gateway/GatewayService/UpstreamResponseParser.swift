import NIOCore

/// Reads a service's HTTP/1.1 responses off its connection, one at a time, for the relay to the client.
///
/// The gateway reads its own services' answers itself rather than through NIO's decoder and encoder: those built
/// an `HTTPResponseHead` with a `String` per header field only for the encoder to write the same bytes again,
/// the largest share of the gateway's CPU after the kernel's (docs/architecture.md, "Measured on this machine").
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
                guard let length = Self.lengthOfHead(in: buffer) else {
                    guard buffer.readableBytes <= Self.maximumHeadBytes else { throw .headTooLarge }
                    return nil
                }
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
    static func lengthOfHead(in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { bytes in
            var index = 3
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
}

/// A service's response head: its bytes as sent, and what the relay needs to know about them.
struct UpstreamResponseHead {
    /// From the status line through the empty line.
    let bytes: ByteBuffer
    let status: Int
    /// The minor version of the service's HTTP/1.x.
    let minorVersion: Int
    private(set) var contentLength: Int?
    private(set) var chunked = false
    /// The service closes the connection after this response.
    private(set) var closesConnection: Bool
    /// A `Connection` or `Keep-Alive` field: hop-by-hop, not relayed.
    private(set) var hasHopByHopFields = false
    /// The `X-Request-Id` the service sent (services echo the gateway's), or `nil`; `hasOtherRequestID` is true
    /// when there was more than one.
    private(set) var requestID: ByteBuffer?
    private(set) var requestIDCount = 0

    init(bytes: ByteBuffer) throws(UpstreamProtocolError) {
        self.bytes = bytes
        // "HTTP/1.x NNN" at least.
        guard bytes.readableBytes >= 12, let prefix = bytes.getString(at: bytes.readerIndex, length: 7),
            prefix == "HTTP/1.", let minor = bytes.getInteger(at: bytes.readerIndex + 7, as: UInt8.self),
            minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1"),
            bytes.getInteger(at: bytes.readerIndex + 8, as: UInt8.self) == UInt8(ascii: " ")
        else { throw .badStatusLine }
        var status = 0
        for offset in 9..<12 {
            guard let digit = bytes.getInteger(at: bytes.readerIndex + offset, as: UInt8.self),
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit)
            else { throw .badStatusLine }
            status = status * 10 + Int(digit - UInt8(ascii: "0"))
        }
        self.status = status
        self.minorVersion = minor == UInt8(ascii: "1") ? 1 : 0
        var keepAlive = minorVersion == 1
        var closes = false
        var thrown: UpstreamProtocolError?
        var contentLength: Int?
        var chunked = false
        var hopByHop = false
        var requestID: ByteBuffer?
        var requestIDCount = 0
        Self.forEachField(in: bytes) { name, value, _ in
            switch name.readableBytes {
            case 10 where HeaderName.matches(bytes: name.readableBytesView, "connection"):
                hopByHop = true
                for token in value.readableBytesView.split(separator: UInt8(ascii: ",")) {
                    if HeaderName.matches(bytes: token.trimmingSpaces, "close") { closes = true }
                    if HeaderName.matches(bytes: token.trimmingSpaces, "keep-alive") { keepAlive = true }
                }
            case 10 where HeaderName.matches(bytes: name.readableBytesView, "keep-alive"):
                hopByHop = true
            case 12 where HeaderName.matches(bytes: name.readableBytesView, "x-request-id"):
                requestID = value
                requestIDCount += 1
            case 14 where HeaderName.matches(bytes: name.readableBytesView, "content-length"):
                guard value.readableBytes > 0, value.readableBytes <= 18,
                    value.readableBytesView.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                else { return thrown = .badContentLength }
                let length = value.readableBytesView.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                if let earlier = contentLength, earlier != length { return thrown = .badContentLength }
                contentLength = length
            case 17 where HeaderName.matches(bytes: name.readableBytesView, "transfer-encoding"):
                // Chunked is the last coding when present; any other coding alone runs until close.
                let last = value.readableBytesView.split(separator: UInt8(ascii: ",")).last
                chunked = last.map { HeaderName.matches(bytes: $0.trimmingSpaces, "chunked") } ?? false
            default: break
            }
        } malformed: {
            thrown = .badField
        }
        if let thrown { throw thrown }
        self.contentLength = contentLength
        self.chunked = chunked
        self.closesConnection = closes || !keepAlive
        self.hasHopByHopFields = hopByHop
        self.requestID = requestID
        self.requestIDCount = requestIDCount
    }

    /// Calls `body` with each header field's name, value (without surrounding spaces) and whole line (with its
    /// CRLF); `malformed` for a line without a colon or a name.
    static func forEachField(
        in head: ByteBuffer, _ body: (_ name: ByteBuffer, _ value: ByteBuffer, _ line: ByteBuffer) -> Void,
        malformed: () -> Void
    ) {
        var rest = head
        // Past the status line; the head ends with an empty line.
        guard (try? UpstreamResponseParser.line(from: &rest)) != nil else { return malformed() }
        while rest.readableBytes > 2 {
            let start = rest.readerIndex
            guard let line = try? UpstreamResponseParser.line(from: &rest) else { return malformed() }
            guard let colon = line.readableBytesView.firstIndex(of: UInt8(ascii: ":")), colon > line.readerIndex
            else { return malformed() }
            let name = line.getSlice(at: line.readerIndex, length: colon - line.readerIndex)!
            let value = line.readableBytesView[(colon + 1)...].trimmingSpaces
            let valueSlice = line.getSlice(at: value.startIndex, length: value.count)!
            body(name, valueSlice, head.getSlice(at: start, length: rest.readerIndex - start)!)
        }
    }
}

extension Collection where Element == UInt8, SubSequence: BidirectionalCollection {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: SubSequence {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let rest = self[first...]
        return rest[...(rest.lastIndex(where: { !isSpace($0) }) ?? first)]
    }
}

extension HeaderName {
    /// ``matches(_:_:)`` for bytes off the wire.
    static func matches(bytes name: some Collection<UInt8>, _ lowercase: String) -> Bool {
        guard name.count == lowercase.utf8.count else { return false }
        return zip(name, lowercase.utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
