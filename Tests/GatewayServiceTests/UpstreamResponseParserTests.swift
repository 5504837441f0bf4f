import NIOCore
import Testing

@testable import GatewayService

/// How the gateway reads its services' answers: heads, bodies in every framing, cut anywhere by the reads.
@Suite struct UpstreamResponseParserTests {
    /// What the parser made of a response.
    struct Parsed {
        var heads: [UpstreamResponseHead] = []
        var body: [UInt8] = []
        var ends = 0
        /// Bytes left over after the end.
        var leftover = 0
        var endsAtClose = false
    }

    /// Feeds `wire` in pieces of `piece` bytes (a piece left unparsed is kept and prefixed to the next, as the
    /// upstream handler does).
    func parse(_ wire: String, piece: Int = .max, toHEAD: Bool = false) throws -> Parsed {
        var parser = UpstreamResponseParser(respondingToHEAD: toHEAD)
        var parsed = Parsed()
        let bytes = Array(wire.utf8)
        var unparsed = ByteBuffer()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            unparsed.writeBytes(bytes[offset..<end])
            offset = end
            while let event = try parser.next(&unparsed) {
                switch event {
                case .head(let head): parsed.heads.append(head)
                case .body(let body): parsed.body += Array(body.readableBytesView)
                case .end: parsed.ends += 1
                }
            }
            if parsed.ends > 0 { break }
        }
        parsed.leftover = unparsed.readableBytes + (bytes.count - offset)
        parsed.endsAtClose = parser.endsAtClose
        return parsed
    }

    static let chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Request-Id: abc\r\n\r\n"
        + "5\r\nhello\r\n1;name=value\r\n,\r\n6 \r\n world\r\n0\r\nTrailer: x\r\n\r\n"

    @Test func aLengthBodyCutAnywhereReadsTheSame() throws {
        let wire = "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world"
        for piece in 1...wire.utf8.count {
            let parsed = try parse(wire, piece: piece)
            #expect(parsed.heads.map(\.status) == [201], "pieces of \(piece)")
            #expect(parsed.heads.first?.contentLength == 11)
            #expect(String(decoding: parsed.body, as: UTF8.self) == "hello world", "pieces of \(piece)")
            #expect(parsed.ends == 1 && parsed.leftover == 0, "pieces of \(piece)")
        }
    }

    @Test func aChunkedBodyCutAnywhereComesOutDechunked() throws {
        for piece in 1...Self.chunked.utf8.count {
            let parsed = try parse(Self.chunked, piece: piece)
            #expect(parsed.heads.first?.chunked == true)
            #expect(String(decoding: parsed.body, as: UTF8.self) == "hello, world", "pieces of \(piece)")
            #expect(parsed.ends == 1 && parsed.leftover == 0, "pieces of \(piece)")
        }
    }

    @Test func aSecondAnswerAfterTheEndIsLeftUnread() throws {
        let wire = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        let parsed = try parse(wire)
        #expect(parsed.heads.count == 1 && parsed.ends == 1)
        #expect(parsed.leftover == 38)
    }

    @Test(arguments: [
        ("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", false),
        ("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", false),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", true),
        ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false),
    ])
    func answersWithoutABodyEndAfterTheirHead(wire: String, toHEAD: Bool) throws {
        let parsed = try parse(wire, toHEAD: toHEAD)
        #expect(parsed.heads.count == 1 && parsed.body.isEmpty && parsed.ends == 1 && parsed.leftover == 0)
    }

    @Test func interimAnswersAreSkipped() throws {
        let parsed = try parse(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(parsed.heads.map(\.status) == [200])
        #expect(parsed.body == Array("ok".utf8))
    }

    @Test func aBodyWithoutFramingRunsUntilTheClose() throws {
        let parsed = try parse("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome bytes")
        #expect(parsed.body == Array("some bytes".utf8))
        #expect(parsed.ends == 0 && parsed.endsAtClose)
    }

    @Test func theHeadSaysWhatTheRelayNeeds() throws {
        let plain = try #require(
            try parse("HTTP/1.1 200 OK\r\nX-Request-Id: r-1\r\nContent-Length: 0\r\n\r\n").heads.first)
        #expect(!plain.closesConnection && !plain.hasHopByHopFields && plain.requestIDCount == 1)
        #expect(plain.requestID.map { String(buffer: $0) } == "r-1")
        #expect(plain.echoes(requestID: "r-1") && !plain.echoes(requestID: "r-12") && !plain.echoes(requestID: "r-"))
        let closing = try #require(
            try parse("HTTP/1.1 200 OK\r\nConnection: Keep-Alive, close\r\nContent-Length: 0\r\n\r\n").heads.first)
        #expect(closing.closesConnection && closing.hasHopByHopFields)
        let old = try #require(try parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").heads.first)
        #expect(old.closesConnection && old.minorVersion == 0)
        let oldKept = try #require(
            try parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").heads.first)
        #expect(!oldKept.closesConnection)
        let twoIDs = try #require(
            try parse("HTTP/1.1 200 OK\r\nX-Request-Id: a\r\nx-request-id: b\r\nContent-Length: 0\r\n\r\n").heads.first)
        #expect(twoIDs.requestIDCount == 2 && !twoIDs.echoes(requestID: "b"))
        let spaced = try #require(try parse("HTTP/1.1 200 OK\r\nContent-Length:  3 \r\n\r\nabc").heads.first)
        #expect(spaced.contentLength == 3)
    }

    @Test(arguments: [
        "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.1 2x0 OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXX",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\r\n",
    ])
    func answersThatAreNotHTTPAreRefused(wire: String) {
        #expect(throws: UpstreamProtocolError.self) { try parse(wire) }
    }

    /// RFC 9112 §6.1: a sender must not send both; relaying either framing could leave the client reading
    /// the body differently from the gateway (issue 41).
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello",
    ])
    func anAnswerWithBothFramingHeadersIsRefused(wire: String) {
        #expect(throws: UpstreamProtocolError.conflictingFraming) { try parse(wire) }
    }

    @Test func aHeadThatNeverEndsIsRefusedPastTheLimit() throws {
        var parser = UpstreamResponseParser(respondingToHEAD: false)
        var buffer = ByteBuffer(string: "HTTP/1.1 200 OK\r\n")
        let field = ByteBuffer(string: "X-Filler: " + String(repeating: "a", count: 1000) + "\r\n")
        var refused = false
        for _ in 0..<100 {
            buffer.writeImmutableBuffer(field)
            do {
                #expect(try parser.next(&buffer) == nil ? true : false, "no event before the head ends")
            } catch {
                refused = true
                break
            }
        }
        #expect(refused)
        #expect(buffer.readableBytes > UpstreamResponseParser.maximumHeadBytes)
    }
}
