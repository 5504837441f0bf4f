import Foundation
import NIOCore
import PlatformKit
import Testing

@testable import NotificationsService

@Suite struct QuietHoursTests {
    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func aWindowPastMidnightCoversBothSides() throws {
        let quiet = try QuietHours(start: "22:00", end: "07:00", timeZone: "Pacific/Honolulu")
        #expect(quiet.contains(date("2026-11-23T08:30:00Z")))  // 22:30 in Honolulu
        #expect(quiet.contains(date("2026-11-23T16:59:00Z")))  // 06:59
        #expect(!quiet.contains(date("2026-11-23T17:00:00Z")))  // 07:00, the end is open
        #expect(!quiet.contains(date("2026-11-23T07:59:00Z")))  // 21:59
    }

    @Test func aDaytimeWindowIsOneRange() throws {
        let quiet = try QuietHours(start: "09:00", end: "17:00", timeZone: "UTC")
        #expect(quiet.contains(date("2026-11-23T09:00:00Z")))
        #expect(!quiet.contains(date("2026-11-23T17:00:00Z")))
        #expect(!quiet.contains(date("2026-11-23T08:59:00Z")))
    }

    @Test func theWindowFollowsTheWallClockAcrossDaylightSaving() throws {
        let quiet = try QuietHours(start: "22:00", end: "07:00", timeZone: "Europe/Paris")
        // 29 March 2026: Paris moves from UTC+1 to UTC+2 at 02:00.
        #expect(quiet.contains(date("2026-03-29T04:30:00Z")))  // 06:30 local, summer time
        #expect(!quiet.contains(date("2026-03-29T05:30:00Z")))  // 07:30 local
        #expect(!quiet.contains(date("2026-03-28T06:30:00Z")))  // 07:30 local the day before, winter time
        #expect(quiet.contains(date("2026-03-28T05:30:00Z")))  // 06:30 local, winter time
    }

    @Test func disabledKindsAndQuietHoursDecidePush() throws {
        let night = date("2026-11-23T23:00:00Z")
        var preferences = Preferences(disabledKinds: ["social.follow_request"])
        #expect(!preferences.allowsPush(of: "social.follow_request", at: night))
        #expect(preferences.allowsPush(of: "social.friend_request", at: night))
        preferences.quietHours = try QuietHours(start: "22:00", end: "07:00", timeZone: "UTC")
        #expect(!preferences.allowsPush(of: "social.friend_request", at: night))
    }

    @Test func badBoundsAreRefused() {
        for (start, end, zone) in [
            ("22:00", "07:00", "Nowhere/Land"), ("25:00", "07:00", "UTC"), ("22:00", "7", "UTC"),
            ("22:60", "07:00", "UTC"), ("10:00", "10:00", "UTC"),
        ] {
            #expect(throws: NotificationsError.self) { try QuietHours(start: start, end: end, timeZone: zone) }
        }
    }
}

@Suite struct ServerSentEventsTests {
    @Test func eventsAreFramedAsTheSpecSays() {
        var buffer = ByteBuffer()
        ServerSentEvents.encode(
            StreamEvent(seq: 7, recipientID: "u", type: "message.created", payload: #"{"a":1}"#), into: &buffer)
        #expect(String(buffer: buffer) == "id: 7\nevent: message.created\ndata: {\"a\":1}\n\n")
    }

    @Test func lastEventIDIsADecimalSequenceNumber() {
        #expect(ServerSentEvents.lastEventID(nil) == .some(nil))
        #expect(ServerSentEvents.lastEventID("") == .some(nil))
        #expect(ServerSentEvents.lastEventID("42") == .some(42))
        #expect(ServerSentEvents.lastEventID("-1") == nil)
        #expect(ServerSentEvents.lastEventID("4x") == nil)
        #expect(ServerSentEvents.lastEventID("99999999999999999999") == nil)
    }

    @Test func payloadsAreCompactedToOneLine() throws {
        #expect(try NoticeValidation.payload("{\n  \"b\": \"x\\ny\",\n  \"a\": 1\n}") == #"{"a":1,"b":"x\ny"}"#)
        #expect(try NoticeValidation.payload(#"{"b":"x\ny", "a":1}"#) == #"{"b":"x\ny", "a":1}"#)
        #expect(try NoticeValidation.payload("{\r\"a\":1}") == #"{"a":1}"#)
        #expect(throws: NotificationsError.self) { try NoticeValidation.payload("[]") }
        #expect(throws: NotificationsError.self) { try NoticeValidation.payload("{") }
        #expect(throws: NotificationsError.self) {
            try NoticeValidation.payload(#"{"a":""# + String(repeating: "x", count: 20_000) + #""}"#)
        }
    }

    @Test func recipientsAreDistinctAndBounded() throws {
        #expect(try NoticeValidation.recipients(["a-1", "a-1", "b-2"]) == ["a-1", "b-2"])
        #expect(throws: NotificationsError.self) { try NoticeValidation.recipients([]) }
        #expect(throws: NotificationsError.self) { try NoticeValidation.recipients(["Robert'); DROP"]) }
        #expect(throws: NotificationsError.self) { try NoticeValidation.recipients((0...1_000).map { "u\($0)" }) }
    }
}

@Suite struct EventHubTests {
    func event(_ seq: Int64, to user: String) -> StreamEvent {
        StreamEvent(seq: seq, recipientID: user, type: "t", payload: "{}")
    }

    @Test func eventsReachOnlyTheirRecipientsConnections() async {
        let hub = EventHub()
        let ann = hub.subscribe("ann", session: "ann-1")
        let annOtherPhone = hub.subscribe("ann", session: "ann-2")
        let bob = hub.subscribe("bob", session: "bob-1")
        hub.publish(event(1, to: "ann"))
        hub.shutDown()
        #expect(await seqs(ann.items) == [1])
        #expect(await seqs(annOtherPhone.items) == [1])
        #expect(await seqs(bob.items) == [])
    }

    @Test func aConnectionThatFallsBehindEndsBeforeTheGap() async {
        let hub = EventHub(bufferLimit: 2)
        let slow = hub.subscribe("ann", session: "ann-1")
        for seq in 1...4 { hub.publish(event(Int64(seq), to: "ann")) }
        // It keeps the oldest and ends: the client reconnects from 2 and misses nothing.
        #expect(await seqs(slow.items) == [1, 2])
        #expect(hub.connectionCount == 0)
    }

    @Test func aClosedConnectionLeavesTheHub() {
        let hub = EventHub()
        let subscription = hub.subscribe("ann", session: "ann-1")
        #expect(hub.connectionCount == 1)
        subscription.continuation.finish()
        #expect(hub.connectionCount == 0)
    }

    @Test func endingASessionEndsItsConnectionsOnlyAfterWhatTheyHold() async {
        // given ann on two devices, each with an event waiting
        let hub = EventHub()
        let phone = hub.subscribe("ann", session: "ann-1")
        let tablet = hub.subscribe("ann", session: "ann-2")
        hub.publish(event(1, to: "ann"))
        // when the phone's session ends
        hub.endSessions(["ann-1", "unknown"])
        hub.publish(event(2, to: "ann"))
        // then the phone's stream says why after what it held, and closes; the tablet's stays open
        var phoneItems: [String] = []
        for await item in phone.items {
            switch item {
            case .event(let event): phoneItems.append("event \(event.seq)")
            case .ended(let end): phoneItems.append(end.rawValue)
            case .heartbeat: phoneItems.append("heartbeat")
            }
        }
        #expect(phoneItems == ["event 1", "session_ended"])
        #expect(hub.connectionCount == 1)
        hub.shutDown()
        #expect(await seqs(tablet.items) == [1, 2])
    }

    /// What a feed reading from the database needs: each connected user's last number handed on (none before the
    /// first, forgotten with their last connection), and a way to close connections it can no longer vouch for.
    @Test func theHubKnowsWhereEachConnectedUserWasLeft() async {
        let hub = EventHub()
        let ann = hub.subscribe("ann", session: "ann-1")
        let bob = hub.subscribe("bob", session: "bob-1")
        hub.publish(event(4, to: "ann"))
        hub.publish(event(9, to: "cat"))
        let points = hub.resumePoints(["ann", "bob", "cat"]).sorted { $0.user < $1.user }
        #expect(points.map(\.user) == ["ann", "bob"])
        #expect(points.map(\.delivered) == [4, nil])
        hub.disconnect(["bob"])
        #expect(await seqs(bob.items) == [])
        ann.continuation.finish()
        let again = hub.subscribe("ann", session: "ann-2")
        #expect(hub.connectedUsers().map(\.user) == ["ann"] && hub.connectedUsers()[0].delivered == nil)
        hub.shutDown()
        #expect(await seqs(again.items) == [])
    }

    /// A stream that resumed with `Last-Event-ID` gives the feed its point before anything is handed to it, so a
    /// listener starting after it (a restarted replica) picks up from there rather than closing it.
    @Test func aResumedConnectionIsPickedUpAfterItsLastEventID() async {
        let hub = EventHub()
        let phone = hub.subscribe("ann", session: "ann-1", resumedAfter: 7)
        let tablet = hub.subscribe("ann", session: "ann-2", resumedAfter: 4)
        #expect(hub.connectedUsers().map(\.delivered) == [4])
        // Once something is handed on, that number is the point.
        hub.publish(event(9, to: "ann"))
        #expect(hub.resumePoints(["ann"]).map(\.delivered) == [9])
        // A connection that resumed after nothing known leaves the user without a point.
        let bobsPhone = hub.subscribe("bob", session: "bob-1", resumedAfter: 3)
        let fresh = hub.subscribe("bob", session: "bob-2")
        #expect(hub.resumePoints(["bob"]).map(\.delivered) == [nil])
        fresh.continuation.finish()
        #expect(hub.resumePoints(["bob"]).map(\.delivered) == [3])
        hub.shutDown()
        #expect(await seqs(phone.items) == [9])
        #expect(await seqs(tablet.items) == [9])
        #expect(await seqs(bobsPhone.items) == [])
    }

    func seqs(_ items: AsyncStream<EventHub.Item>) async -> [Int64] {
        var result: [Int64] = []
        for await item in items {
            if case .event(let event) = item { result.append(event.seq) }
        }
        return result
    }
}

@Suite struct RecentEventKeysTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aKeyIsTakenOncePerProducerWithinTheWindow() {
        let keys = RecentEventKeys(capacity: 10, window: 60)
        #expect(keys.insert("message.created:1", producer: "messaging", now: start))
        #expect(!keys.insert("message.created:1", producer: "messaging", now: start.addingTimeInterval(59)))
        #expect(keys.insert("message.created:1", producer: "household", now: start))
        // After the window the key is forgotten (a producer never retries that late).
        #expect(keys.insert("message.created:1", producer: "messaging", now: start.addingTimeInterval(61)))
    }

    @Test func memoryIsBoundedAndARemovedKeyIsAcceptedAgain() {
        let keys = RecentEventKeys(capacity: 3, window: 600)
        for n in 0..<5 { #expect(keys.insert("k:\(n)", producer: "p", now: start)) }
        #expect(keys.count == 3)
        // the oldest went first
        #expect(keys.insert("k:0", producer: "p", now: start))
        #expect(!keys.insert("k:4", producer: "p", now: start))
        keys.remove("k:4", producer: "p")
        #expect(keys.insert("k:4", producer: "p", now: start))
        // thousands of keys through a small set stay within its capacity
        for n in 0..<5_000 { _ = keys.insert("many:\(n)", producer: "p", now: start) }
        #expect(keys.count == 3)
    }
}
