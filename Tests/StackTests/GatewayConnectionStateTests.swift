import Foundation
import PlatformKit
import TestSupport
import Testing

/// Upstream connections the gateway pools must be left as they were found (issue 16 item 6).
@Suite struct GatewayConnectionStateTests {
    /// On one keep-alive client connection, a habit event's photo and then an event with a photo one byte
    /// too large: the service's 413 every time, at once (it was a 504 after 30 s on every second attempt).
    @Test func aPhotoThenAnOversizedEventAnswers413AtOnceEveryTime() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            // given an event with the largest photo the service takes
            let habit = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let token = world.token(world.ann)
            let photo = TestImages.png(size: 65_535)
            let created = try await world.event(
                world.ann, habit, EventBody(date: "2027-01-03", photo: photo.base64EncodedString()))
            let photoURL = try #require(try created.decode(EventPhoto.self).photoUrl)
            let oversized = try JSONEncoder().encode(
                EventBody(comment: "big", photo: TestImages.png(size: 65_537).base64EncodedString()))
            let connection = try await world.stack.rawConnection()
            for attempt in 1...4 {
                // when
                try await connection.send(RawHTTPConnection.request("GET", photoURL, token: token))
                let image = try await connection.response(timeout: .seconds(10))
                let start = ContinuousClock.now
                try await connection.send(
                    RawHTTPConnection.request(
                        "POST", "\(HabitsPaths.habits)/\(habit)/events", token: token,
                        headers: [("Content-Type", "application/json")], body: Array(oversized)))
                let refused = try await connection.response(timeout: .seconds(10))
                // then
                #expect(image?.status == 200, "attempt \(attempt)")
                #expect(image?.body == Array(photo), "attempt \(attempt)")
                #expect(refused?.status == 413, "attempt \(attempt)")
                #expect(refused?.problemCode == "photo_too_large", "attempt \(attempt)")
                // Not after the read deadline above (10 s), as in GatewayEarlyAnswerTests.
                #expect(ContinuousClock.now - start < .seconds(9), "attempt \(attempt)")
            }
            await connection.close()
        }
    }
}

/// The part of a habit event's answer (`EventView`) this test reads; the habits wire types live with the habits
/// tests.
private struct EventPhoto: Decodable {
    var id: String
    var photoUrl: String?
}
