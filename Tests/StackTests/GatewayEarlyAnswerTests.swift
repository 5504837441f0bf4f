import Foundation
import PlatformKit
import TestSupport
import Testing

/// A service answering before the request body is complete (it refuses an upload): the client gets that
/// answer at once, its connection goes on working, and the service's half-read connection is never
/// pooled again (issue 16 items 1 and 6).
@Suite struct GatewayEarlyAnswerTests {
    /// Sends an upload too large for the service twice on one client connection, each followed by a
    /// request to the same service that must get its own answer.
    static func refusedTwiceThenProbed(
        _ stack: TestStack, _ method: String, _ path: String, token: String, body: [UInt8],
        contentType: String = "image/png", probe: String
    ) async throws {
        let connection = try await stack.rawConnection()
        for attempt in 1...2 {
            let start = ContinuousClock.now
            try await connection.send(
                RawHTTPConnection.request(
                    method, path, token: token, headers: [("Content-Type", contentType)], body: body))
            let refused = try await connection.response(timeout: .seconds(10))
            #expect(refused?.status == 413, "\(method) \(path), attempt \(attempt): \(refused?.text ?? "closed")")
            // Not waiting for a timeout: the read deadline above is 10 s. Alone this takes well under a second; in the
            // whole parallel suite on two cores, 3 MiB through two debug processes has taken up to 6 s.
            #expect(ContinuousClock.now - start < .seconds(9), "\(path) answered without waiting for a timeout")
            try await connection.send(RawHTTPConnection.request("GET", probe, token: token))
            let probed = try await connection.response(timeout: .seconds(10))
            #expect(probed?.status == 200, "\(probe) after \(path), attempt \(attempt): \(probed?.text ?? "closed")")
        }
        await connection.close()
    }

    static func png(_ size: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: size)
    }

    @Test func avatar() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            try await Self.refusedTwiceThenProbed(
                stack, "PUT", IdentityPaths.me + "/avatar", token: alice.accessToken, body: Self.png(3 << 20),
                probe: IdentityPaths.me)
        }
    }

    @Test func pinPhoto() async throws {
        try await GeoWorld.run { world in
            let pin = try await world.pin(world.ann, 64.14, -21.94, "Reykjavík")
            let photos = GeoPaths.pins + "/\(pin)/photos"
            try await Self.refusedTwiceThenProbed(
                world.stack, "POST", photos, token: world.ann.accessToken, body: Self.png(5 << 20), probe: photos)
        }
    }

    @Test func habitEventPhoto() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let event = try await world.recorded(world.ann, habit, EventBody(date: "2027-01-03"))
            // Larger than a service reads into memory (1 MiB): refused before the body ends.
            let body = Array(try JSONEncoder().encode(EventBody(photo: Data(Self.png(1 << 20)).base64EncodedString())))
            try await Self.refusedTwiceThenProbed(
                world.stack, "POST", "\(HabitsPaths.habits)/\(habit)/events", token: world.token(world.ann), body: body,
                contentType: "application/json", probe: HabitsPaths.today)
            try await Self.refusedTwiceThenProbed(
                world.stack, "PATCH", "\(HabitsPaths.events)/\(event)", token: world.token(world.ann), body: body,
                contentType: "application/json", probe: "\(HabitsPaths.events)/\(event)")
        }
    }

    @Test func householdNotePhotoBillImageAndTripReceipt() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let token = world.ann.accessToken
            let note = try await world.api.post(world.path(id, "/notes"), token: token, json: NoteBody(text: "Look"))
            let bill = try await world.api.post(
                world.path(id, "/bills"), token: token,
                json: HouseholdMoneyTests.Bill(amount: 4_250, split: .init(kind: "equal")))
            _ = try await world.api.post(
                world.path(id, "/groceries"), token: token, json: HouseholdGroceryTests.Item(name: "Apples"))
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: token,
                json: HouseholdGroceryTests.Trip(total: 450, items: [.init(name: "apple")]))
            for (rest, size) in [
                ("/notes/\(try note.decode(WireCreated.self).id)/photo", 3 << 20),
                ("/bills/\(try bill.decode(WireCreated.self).id)/image", 3 << 20),
                ("/trips/\(try trip.decode(WireCreated.self).id)/receipt", 5 << 20),
            ] {
                try await Self.refusedTwiceThenProbed(
                    world.stack, "PUT", world.path(id, rest), token: token, body: Self.png(size), probe: world.path(id))
            }
        }
    }

    /// A stand-in service that answers as soon as the head arrives, keeping the connection (reading the
    /// rest) or closing it; bodies framed by length or chunked, small or past the gateway's replay buffer.
    @Test(arguments: [false, true], [false, true])
    func aServiceAnsweringBeforeTheBodyEnds(closing: Bool, chunked: Bool) async throws {
        let upstream = try await MisbehavingUpstream.start(.answerBeforeBody(status: 413, closing: closing))
        let port = upstream.port
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/upload", .social)],
            configureGateway: { $0.upstreams[.social] = .init(host: "127.0.0.1", port: port) }
        ) { stack in
            let alice = try await stack.register("alice")
            let connection = try await stack.rawConnection()
            for (index, size) in [1_000, 200_000, 3 << 20].enumerated() {
                // when: half the body, the answer, then the other half and another request
                let path = "/v1/upload/\(index)"
                var bytes = RawHTTPConnection.request(
                    "POST", path, token: alice.accessToken, body: [UInt8](repeating: 0x61, count: size))
                if chunked {
                    let head =
                        "POST \(path) HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer \(alice.accessToken)\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n\(String(size, radix: 16))\r\n"
                    bytes = Array(head.utf8) + [UInt8](repeating: 0x61, count: size) + Array("\r\n0\r\n\r\n".utf8)
                }
                let half = bytes.count - size / 2
                try await connection.send(Array(bytes[..<half]))
                let answer = try await connection.response(timeout: .seconds(10))
                try await connection.send(Array(bytes[half...]))
                try await connection.send(RawHTTPConnection.request("GET", path + "/next", token: alice.accessToken))
                let next = try await connection.response(timeout: .seconds(10))
                // then
                #expect(answer?.status == 413, "\(size) bytes")
                #expect(try answer?.decode(WireEarlyAnswer.self).uri == path)
                #expect(next?.status == 413, "the next request on the client's connection is answered")
                #expect(try next?.decode(WireEarlyAnswer.self).uri == path + "/next", "its own answer")
            }
            let requests = upstream.requests
            try #require(
                requests.map(\.uri) == ["0", "0/next", "1", "1/next", "2", "2/next"].map { "/v1/upload/\($0)" })
            // Each upload was answered mid-body, leaving its connection mid-request: never used again.
            for pair in stride(from: 0, to: requests.count, by: 2) {
                #expect(requests[pair].connection != requests[pair + 1].connection, "\(requests[pair].uri)")
            }
            await connection.close()
        }
        await upstream.stop()
    }
}
