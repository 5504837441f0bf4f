import NIOHTTP1
import PlatformKit
import Testing

@testable import GatewayService

/// W3C `traceparent` as the gateway reads and writes it (issue 23, traces).
@Suite struct TraceParentTests {
    static let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func aValidValueIsReadAndWrittenBackUnchanged() throws {
        let parent = try #require(TraceParent(Self.valid))
        #expect(parent.traceIDHex == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.spanIDHex == "00f067aa0ba902b7")
        #expect(parent.flags == 1)
        #expect(parent.header == Self.valid)
    }

    @Test func aChildKeepsTheTraceAndFlagsWithItsOwnSpan() throws {
        let parent = try #require(TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))
        let child = parent.child(spanID: 0xabc)
        #expect(child.header == "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000abc-00")
    }

    @Test func aLaterVersionIsReadByItsVersionZeroPrefix() {
        #expect(
            TraceParent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra")?.spanID
                == 0x00f0_67aa_0ba9_02b7)
    }

    @Test(arguments: [
        "", "garbage", String(TraceParentTests.valid.dropLast()), TraceParentTests.valid + "-",
        TraceParentTests.valid + "0",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // zero span id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // forbidden version
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",  // a later version needs a dash after
    ])
    func anInvalidValueIsIgnored(value: String) {
        #expect(TraceParent(value) == nil)
    }

    @Test func newTracesHaveFreshNonZeroIdsAndAreSampled() throws {
        var generator = TraceIDGenerator()
        let a = TraceParent.root(using: &generator)
        let b = TraceParent.root(using: &generator)
        #expect(a.traceID != b.traceID)
        #expect(a.flags == 1)
        let reread = try #require(TraceParent(a.header))
        #expect(reread == a)
    }

    @Test func theHeaderBytesAreTheHeader() throws {
        let parent = try #require(TraceParent(Self.valid)).child(spanID: 0xabc)
        #expect(parent.withHeaderBytes { String(decoding: $0, as: UTF8.self) } == parent.header)
    }

    @Test func madeUpRequestIDsAreDistinctPlainAndShort() async {
        // Four tasks at once, as the gateway's event loops and the services make them up.
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<5_000).map { _ in RequestIDs.next() } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(Set(ids).count == 20_000)
        let plain = ids.allSatisfy { id in
            let parts = id.split(separator: "-")
            return parts.count == 2 && parts[0].count == 16 && (1...16).contains(parts[1].count)
                && id.utf8.allSatisfy { $0 == UInt8(ascii: "-") || ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
        }
        #expect(plain)
        // Accepted back as a client's own id (8 to 64 plain characters), so a retried request keeps it.
        #expect(ids.allSatisfy { GatewayHandler.requestID(from: ["x-request-id": $0]) == $0 })
    }

    @Test func theProcessWideSequenceGivesEveryTaskItsOwnIds() async {
        // Four tasks drawing at once, as services' event loops start spans: no id twice, none zero.
        let ids = await withTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var generator = SharedTraceIDGenerator()
                    return (0..<50_000).map { _ in TraceParent.spanID(using: &generator) }
                }
            }
            return await group.reduce(into: [UInt64]()) { $0 += $1 }
        }
        #expect(ids.count == 200_000 && Set(ids).count == 200_000 && !ids.contains(0))
        var generator = SharedTraceIDGenerator()
        let a = TraceParent.root(using: &generator)
        let b = TraceParent.root(using: &generator)
        #expect(a.traceID != b.traceID)
    }

    @Test(arguments: ["traceparent", "TraceParent", "tracestate", "TRACESTATE"])
    func theClientsTraceContextIsReplacedNotForwarded(name: String) {
        #expect(GatewayHandler.isDroppedRequestHeader(name))
    }
}
