import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// Two replicas of the notifications service on one PostgreSQL database, called directly: a user's events reach
/// their live stream whichever replica holds it and whichever replica stored them, exactly once, and a client that
/// reconnects to the other replica with `Last-Event-ID` gets exactly what it missed.
@Suite struct NotificationsReplicaTests {
    @Test func aStreamGetsEveryReplicasEventsOnceAndResumesOnTheOther() async throws {
        try await NotificationsWorld.run(
            postgres: TestStack.postgresByDefault.union([.notifications]), replicas: [.notifications: 2]
        ) { world in
            let urls = try #require(world.stack.replicaURLs[.notifications])
            try #require(urls.count == 2)
            let (first, second) = (urls[0], urls[1])
            // given ann's stream on the first replica
            let onFirst = try await EventStreamClient.connect(
                first + NotificationsPaths.stream, token: world.ann.accessToken)
            #expect(onFirst.status == 200)
            #expect(try await onFirst.nextMessage().comment == "connected")
            // when a notice and a realtime event are posted to the second, the event retried on both
            #expect(try await world.notify([world.ann, world.bob], text: "one", replica: second).status == 200)
            for replica in [second, first, second] {
                let posted = try await world.publish(
                    [world.ann], type: "message.created", payload: #"{"text":"two"}"#, key: "message.created:2",
                    replica: replica)
                #expect(posted.status == 202)
            }
            try await world.notify([world.ann], text: "three", replica: first)
            // then the stream on the first has each once, in order
            let one = try await onFirst.nextEvent()
            #expect(one.event == "notification.created" && one.data?.contains(#""text":"one""#) == true)
            let two = try await onFirst.nextEvent()
            #expect(two.event == "message.created" && two.data == #"{"text":"two"}"#)
            let three = try await onFirst.nextEvent()
            #expect(three.data?.contains(#""text":"three""#) == true)
            await #expect(throws: EventStreamClient.StreamError.timedOut) {
                try await onFirst.nextEvent(within: .milliseconds(500))
            }
            onFirst.close()

            // when, disconnected, ann misses one event stored by each replica
            try await world.publish([world.ann], type: "test.missed", payload: #"{"n":"4"}"#, replica: first)
            try await world.publish([world.ann], type: "test.missed", payload: #"{"n":"5"}"#, replica: second)
            // then reconnecting to the second with the last id she saw gets exactly those, then what comes next
            let onSecond = try await EventStreamClient.connect(
                second + NotificationsPaths.stream, token: world.ann.accessToken, lastEventID: three.id)
            #expect(onSecond.status == 200)
            let missed = [try await onSecond.nextEvent(), try await onSecond.nextEvent()]
            #expect(missed.map { $0.object["n"] as? String } == ["4", "5"])
            try await world.publish([world.ann], type: "test.live", payload: #"{"n":"6"}"#, replica: first)
            let live = try await onSecond.nextEvent()
            #expect(live.object["n"] as? String == "6")
            await #expect(throws: EventStreamClient.StreamError.timedOut) {
                try await onSecond.nextEvent(within: .milliseconds(500))
            }
            let ids = ([one, two, three] + missed + [live]).compactMap { $0.id.flatMap { Int($0) } }
            #expect(ids.count == 6 && ids == ids.sorted() && Set(ids).count == 6)
            onSecond.close()
        }
    }
}
