import Foundation
import PlatformKit
import TestSupport
import Testing

@Suite struct NotificationInboxTests {
    @Test func aRetriedProducerPostAddsNothing() async throws {
        try await NotificationsWorld.run { world in
            let first = try await world.notify([world.ann, world.bob], key: "chore-completion:42")
            #expect(first.status == 200)
            let report = try first.decode(WireDeliveryReport.self)
            #expect(report.created == 2)
            #expect(report.duplicates == 0)
            let retry = try await world.notify([world.ann, world.bob], key: "chore-completion:42")
            let retried = try retry.decode(WireDeliveryReport.self)
            #expect(retried.created == 0)
            #expect(retried.duplicates == 2)
            #expect(try await world.inbox(world.ann).count == 1)
            #expect(try await world.unread(world.bob) == 1)
            // Another key is another notice.
            try await world.notify([world.ann], key: "chore-completion:43")
            #expect(try await world.inbox(world.ann).count == 2)
        }
    }

    @Test func aProducerServiceReachesTheInboxThroughItsSink() async throws {
        try await NotificationsWorld.run { world in
            let request = try await world.api.post(
                SocialPaths.friendRequests, token: world.ann.accessToken, json: ["username": "bob"])
            #expect(request.status == 201)
            let items = try await world.inbox(world.bob)
            #expect(items.map(\.kind) == ["social.friend_request"])
            #expect(items.first?.producer == "social")
            #expect(items.first?.text == "ann wants to be your friend.")
            #expect(items.first?.read == false)
            #expect(try await world.inbox(world.ann).isEmpty)
        }
    }

    @Test func theInboxPagesNewestFirstAndMarksRead() async throws {
        try await NotificationsWorld.run { world in
            for index in 1...3 {
                try await world.notify([world.ann], text: "notice \(index)")
                world.stack.clock.advance(by: 1)
            }
            let firstPage = try await world.api.get(
                NotificationsPaths.notifications + "?limit=2", token: world.ann.accessToken)
            let page = try firstPage.decode(WirePage<WireNotification>.self)
            #expect(page.items.map(\.text) == ["notice 3", "notice 2"])
            let cursor = try #require(page.nextCursor)
            let rest = try await world.inbox(world.ann, query: "?limit=2&cursor=\(cursor)")
            #expect(rest.map(\.text) == ["notice 1"])

            let newest = try #require(page.items.first?.id)
            #expect(try await world.unread(world.ann) == 3)
            let read = try await world.api.post(
                NotificationsPaths.notifications + "/\(newest)/read", token: world.ann.accessToken)
            #expect(read.status == 204)
            #expect(try await world.unread(world.ann) == 2)
            #expect(try await world.inbox(world.ann, query: "?unread=true").count == 2)
            let readNotice = try #require(try await world.inbox(world.ann).first)
            #expect(readNotice.id == newest)
            #expect(readNotice.read == true)
            #expect(readNotice.readAt != nil)

            let all = try await world.api.post(NotificationsPaths.readAll, token: world.ann.accessToken)
            #expect(try all.decode(WireMarked.self).marked == 2)
            #expect(try await world.unread(world.ann) == 0)

            let deleted = try await world.api.delete(
                NotificationsPaths.notifications + "/\(newest)", token: world.ann.accessToken)
            #expect(deleted.status == 204)
            #expect(try await world.inbox(world.ann).count == 2)
        }
    }

    @Test func anotherUserCanNeitherSeeNorTouchMyNotices() async throws {
        try await NotificationsWorld.run { world in
            try await world.notify([world.ann])
            let id = try #require(try await world.inbox(world.ann).first?.id)
            #expect(try await world.inbox(world.bob).isEmpty)
            let read = try await world.api.post(
                NotificationsPaths.notifications + "/\(id)/read", token: world.bob.accessToken)
            #expect(read.status == 404)
            #expect(read.problem?.code == "not_found")
            let delete = try await world.api.delete(
                NotificationsPaths.notifications + "/\(id)", token: world.bob.accessToken)
            #expect(delete.status == 404)
            #expect(
                try await world.api.post(NotificationsPaths.readAll, token: world.bob.accessToken)
                    .decode(WireMarked.self).marked == 0)
            #expect(try await world.unread(world.ann) == 1)
            #expect(try await world.inbox(world.ann).count == 1)
        }
    }

    @Test func badInputGetsProblems() async throws {
        try await NotificationsWorld.run { world in
            // Each bad parameter and notice is named at router level (NotificationsRouterTests); here, what only
            // the whole platform shows.
            #expect(try await world.api.get(NotificationsPaths.notifications).status == 401)
            let notJSON = try await world.publish([world.ann], type: "message.created", payload: "[1, 2]")
            #expect(notJSON.status == 400)
            let wrongCredential = try await world.internalPost(
                NotificationsPaths.internalEvents,
                ["recipientIds": .array([.string(world.ann.id)]), "type": .string("x"), "payload": .string("{}")],
                token: "not-the-token")
            #expect(wrongCredential.status == 401 || wrongCredential.status == 403)
            // The gateway never forwards internal routes.
            #expect(try await world.api.post(NotificationsPaths.internalNotifications, json: ["a": "b"]).status == 404)
            #expect(try await world.inbox(world.ann).isEmpty)
        }
    }
}

@Suite struct LiveStreamTests {
    @Test func aReconnectingStreamResumesFromLastEventID() async throws {
        try await NotificationsWorld.run { world in
            let first = try await world.stream(world.ann)
            #expect(first.status == 200)
            #expect(first.headers.first(name: "content-type") == "text/event-stream")
            try await world.notify([world.ann], text: "one")
            let one = try await first.nextEvent()
            #expect(one.event == "notification.created")
            #expect(try one.decode(WireNotification.self).text == "one")
            first.close()

            // While the phone was in a tunnel: a notice and a producer's realtime event.
            try await world.notify([world.ann], text: "two")
            #expect(
                try await world.publish([world.ann], type: "message.created", payload: #"{"text":"hi\nthere"}"#)
                    .status == 202)

            let resumed = try await world.stream(world.ann, lastEventID: one.id)
            let two = try await resumed.nextEvent()
            #expect(try two.decode(WireNotification.self).text == "two")
            let message = try await resumed.nextEvent()
            #expect(message.event == "message.created")
            #expect(try message.decode(PublishedText.self).text == "hi\nthere")
            try await world.notify([world.ann], text: "three")
            let three = try await resumed.nextEvent()
            #expect(try three.decode(WireNotification.self).text == "three")
            let ids: [Int] = [one, two, message, three].compactMap { $0.id.flatMap { Int($0) } }
            #expect(ids.count == 4)
            #expect(ids == ids.sorted())
            resumed.close()
        }
    }

    @Test func aRetriedRealtimeEventReachesTheStreamOnce() async throws {
        try await NotificationsWorld.run { world in
            let stream = try await world.stream(world.ann)
            let key = "message.created:7"
            for _ in 0..<2 {
                let posted = try await world.publish(
                    [world.ann], type: "message.created", payload: #"{"text":"once"}"#, key: key)
                #expect(posted.status == 202)
            }
            // Another producer's event with the same key is its own change.
            try await world.publish(
                [world.ann], type: "household.changed", payload: #"{"text":"other producer"}"#, key: key,
                producer: "household")
            try await world.publish([world.ann], type: "message.created", payload: #"{"text":"next"}"#, key: "k:8")
            var texts: [String] = []
            while texts.last != "next" { texts.append(try await stream.nextEvent().decode(PublishedText.self).text) }
            #expect(texts == ["once", "other producer", "next"])
            let badKey = try await world.publish(
                [world.ann], type: "message.created", payload: "{}", key: String(repeating: "k", count: 201))
            #expect(badKey.status == 400)
            stream.close()
        }
    }

    @Test func oneUserNeverReceivesAnothersEvents() async throws {
        try await NotificationsWorld.run { world in
            let annStream = try await world.stream(world.ann)
            let bobStream = try await world.stream(world.bob)
            try await world.notify([world.ann], text: "for ann")
            try await world.publish([world.ann], type: "message.created", payload: #"{"text":"secret"}"#)
            try await world.notify([world.bob], text: "for bob")
            #expect(try await annStream.nextEvent().decode(WireNotification.self).text == "for ann")
            #expect(try await annStream.nextEvent().decode(PublishedText.self).text == "secret")
            // Bob's first event is his own: ann's two never reached his stream.
            #expect(try await bobStream.nextEvent().decode(WireNotification.self).text == "for bob")
            // Resuming from zero replays only his own history.
            let replay = try await world.stream(world.bob, lastEventID: "0")
            #expect(try await replay.nextEvent().decode(WireNotification.self).text == "for bob")
            await #expect(throws: EventStreamClient.StreamError.timedOut) {
                try await replay.nextEvent(within: .milliseconds(300))
            }
            annStream.close()
            bobStream.close()
            replay.close()
        }
    }

    @Test func readMarkersReachMyOtherDevices() async throws {
        try await NotificationsWorld.run { world in
            try await world.notify([world.ann])
            let id = try #require(try await world.inbox(world.ann).first?.id)
            let stream = try await world.stream(world.ann)
            _ = try await world.api.post(NotificationsPaths.notifications + "/\(id)/read", token: world.ann.accessToken)
            let marker = try await stream.nextEvent()
            #expect(marker.event == "notification.read")
            let read = try marker.decode(WireReadEvent.self)
            #expect(read.ids == [id])
            #expect(read.all == false)
            stream.close()
        }
    }

    @Test func heartbeatsKeepAnIdleStreamAlive() async throws {
        try await NotificationsWorld.run(heartbeat: .milliseconds(50)) { world in
            let stream = try await world.stream(world.ann)
            #expect(try await stream.nextMessage().comment == "connected")
            #expect(try await stream.nextMessage().comment == "heartbeat")
            stream.close()
        }
    }

    @Test func aMalformedLastEventIDOrNoTokenIsRefused() async throws {
        try await NotificationsWorld.run { world in
            let malformed = try await world.stream(world.ann, lastEventID: "yesterday")
            #expect(malformed.status == 400)
            let anonymous = try await EventStreamClient.connect(
                world.api.baseURL + NotificationsPaths.stream, token: nil)
            #expect(anonymous.status == 401)
        }
    }

    @Test func stoppingTheServiceEndsOpenStreams() async throws {
        try await NotificationsWorld.run { world in
            let stream = try await world.stream(world.ann)
            #expect(try await stream.nextMessage().comment == "connected")
            await world.stack.stop("notifications")
            _ = try await stream.waitForEnd()
        }
    }
}

@Suite struct PushTests {
    static let annsPhone = String(repeating: "ab", count: 32)

    /// Moves the clock forward to the next `hour`:00 in `zone`.
    func advance(_ world: NotificationsWorld, toHour hour: Int, in zone: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let next = calendar.nextDate(
            after: world.stack.clock.now, matching: DateComponents(hour: hour, minute: 0), matchingPolicy: .nextTime)!
        world.stack.clock.advance(by: next.timeIntervalSince(world.stack.clock.now))
    }

    @Test func endedSessionsTakeTheirDevicesWithThem() async throws {
        try await NotificationsWorld.run { world in
            func register(_ token: String, _ accessToken: String) async throws {
                let response = try await world.api.send(
                    .PUT, NotificationsPaths.devices + "/\(token)", token: accessToken, json: ["environment": "sandbox"]
                )
                #expect(response.status == 200)
            }
            func devices(_ accessToken: String) async throws -> [String] {
                let list = try await world.api.get(NotificationsPaths.devices, token: accessToken)
                return try list.decode(WireItems<WireDevice>.self).items.map(\.token)
            }
            func signIn(_ user: TestUser, _ password: String? = nil) async throws -> String {
                let response = try await world.api.post(
                    IdentityPaths.login, json: ["identifier": user.username, "password": password ?? user.password])
                return try response.decode(WireTokenPair.self).accessToken
            }
            let (phone, tablet, laptop) = (
                String(repeating: "a1", count: 32), String(repeating: "b2", count: 32),
                String(repeating: "c3", count: 32)
            )
            // ann on three devices
            let tabletSession = try await signIn(world.ann)
            let laptopSession = try await signIn(world.ann)
            try await register(phone, world.ann.accessToken)
            try await register(tablet, tabletSession)
            try await register(laptop, laptopSession)
            // signing out on the tablet forgets the tablet only
            #expect(try await world.api.post(IdentityPaths.logout, token: tabletSession).status == 204)
            #expect(Set(try await devices(world.ann.accessToken)) == [phone, laptop])
            // a password change on the phone signs the laptop out, and forgets it
            let changed = try await world.api.post(
                IdentityPaths.changePassword, token: world.ann.accessToken,
                json: ["currentPassword": world.ann.password, "newPassword": "another long passphrase"])
            #expect(changed.status == 200)
            #expect(try await devices(world.ann.accessToken) == [phone])
            // bob's sign-out everywhere does not touch ann's devices
            try await register(String(repeating: "d4", count: 32), world.bob.accessToken)
            #expect(try await world.api.post(IdentityPaths.logoutAll, token: world.bob.accessToken).status == 204)
            // (his old token is ended too: his devices are read in a new session)
            #expect(try await devices(signIn(world.bob)).isEmpty)
            #expect(try await devices(world.ann.accessToken) == [phone])
            // the internal route checks what it is given, and wants the service credential
            let path = NotificationsPaths.internalEndedSessions
            #expect(
                try await world.internalPost(path, ["userId": .string(""), "sessionIds": .array([])]).status == 400)
            #expect(try await world.internalPost(path, ["userId": .string(world.ann.id)]).status == 400)
            let asUser = try await world.stack.direct(.notifications).send(
                .POST, path, token: world.ann.accessToken,
                json: JSONValue.object(["userId": .string(world.ann.id), "sessionIds": .array([])]))
            #expect(asUser.status == 403)
            #expect(try await devices(world.ann.accessToken) == [phone])
        }
    }

    @Test func quietHoursSuppressPushButNotTheInbox() async throws {
        try await NotificationsWorld.run { world in
            let device = try await world.api.send(
                .PUT, NotificationsPaths.devices + "/\(Self.annsPhone)", token: world.ann.accessToken,
                json: ["environment": "sandbox"])
            #expect(device.status == 200)
            let saved = try await world.api.send(
                .PUT, NotificationsPaths.preferences, token: world.ann.accessToken,
                json: JSONValue.object([
                    "disabledKinds": .array([.string("social.follow_request")]),
                    "quietHours": .object([
                        "start": .string("22:00"), "end": .string("07:00"), "timeZone": .string("Pacific/Auckland"),
                    ]),
                ]))
            #expect(saved.status == 200)

            advance(world, toHour: 23, in: "Pacific/Auckland")
            try await world.notify([world.ann], text: "at night")
            advance(world, toHour: 8, in: "Pacific/Auckland")
            try await world.notify([world.ann], kind: "social.follow_request", text: "switched off")
            try await world.notify([world.ann], text: "in the morning")

            let pushed = await world.pushes.next()
            #expect(pushed?.text == "in the morning")
            #expect(pushed?.deviceToken == Self.annsPhone)
            #expect(pushed?.environment == "sandbox")
            #expect(world.pushes.all.map(\.text) == ["in the morning"])
            // Hours have passed: the morning's inbox needs a fresh access token.
            let login = try await world.api.post(
                IdentityPaths.login, json: ["identifier": "ann", "password": world.ann.password])
            var ann = world.ann
            ann.accessToken = try login.decode(WireTokenPair.self).accessToken
            #expect(
                try await world.inbox(ann).map(\.text) == [
                    "in the morning", "switched off", "at night",
                ])
        }
    }

    @Test func preferencesAreValidatedAndReadBack() async throws {
        try await NotificationsWorld.run { world in
            let empty = try await world.api.get(NotificationsPaths.preferences, token: world.ann.accessToken)
            let none = try empty.decode(WirePreferences.self)
            #expect(none.disabledKinds == [])
            #expect(none.quietHours == nil)
            let bad: [(String, String, String)] = [
                ("22:00", "07:00", "Mars/Olympus"), ("24:00", "07:00", "UTC"), ("7:00", "08:00", "UTC"),
                ("08:00", "08:00", "UTC"),
            ]
            for (start, end, zone) in bad {
                let response = try await world.api.send(
                    .PUT, NotificationsPaths.preferences, token: world.ann.accessToken,
                    json: JSONValue.object([
                        "disabledKinds": .array([]),
                        "quietHours": .object(["start": .string(start), "end": .string(end), "timeZone": .string(zone)]
                        ),
                    ]))
                #expect(response.status == 400, "\(start)-\(end) \(zone)")
                #expect(response.problem?.code.hasPrefix("invalid_quiet_hours") == true)
            }
            let saved = try await world.api.send(
                .PUT, NotificationsPaths.preferences, token: world.ann.accessToken,
                json: JSONValue.object([
                    "disabledKinds": .array([.string("household.note_posted")]),
                    "quietHours": .object([
                        "start": .string("23:30"), "end": .string("06:15"), "timeZone": .string("Europe/Paris"),
                    ]),
                ]))
            #expect(saved.status == 200)
            let read = try await world.api.get(NotificationsPaths.preferences, token: world.ann.accessToken)
            let preferences = try read.decode(WirePreferences.self)
            #expect(preferences.disabledKinds == ["household.note_posted"])
            let window = try #require(preferences.quietHours)
            #expect([window.start, window.end, window.timeZone] == ["23:30", "06:15", "Europe/Paris"])
            // Bob's preferences are his own.
            let bobs = try await world.api.get(NotificationsPaths.preferences, token: world.bob.accessToken)
            #expect(try bobs.decode(WirePreferences.self).disabledKinds == [])
        }
    }

    @Test func deviceTokensBelongToOneSessionAndOneUser() async throws {
        try await NotificationsWorld.run { world in
            let path = NotificationsPaths.devices
            #expect(
                try await world.api.send(.PUT, path + "/not-hex", token: world.ann.accessToken).status == 400)
            #expect(
                try await world.api.send(
                    .PUT, path + "/\(Self.annsPhone)", token: world.ann.accessToken, json: ["environment": "staging"]
                ).status == 400)
            #expect(
                try await world.api.send(.PUT, path + "/\(Self.annsPhone)", token: world.ann.accessToken).status == 200)
            // The same session registering a new token (the app was reinstalled) replaces the old one.
            let newPhone = String(repeating: "cd", count: 32)
            #expect(try await world.api.send(.PUT, path + "/\(newPhone)", token: world.ann.accessToken).status == 200)
            let listed = try await world.api.get(path, token: world.ann.accessToken)
            let devices = try listed.decode(WireItems<WireDevice>.self).items
            #expect(devices.map(\.token) == [newPhone])
            #expect(devices.map(\.environment) == ["production"], "a bare PUT registers a production token")

            // Bob can neither see nor remove it.
            #expect(
                try await world.api.get(path, token: world.bob.accessToken).decode(WireItems<WireDevice>.self).items
                    .isEmpty)
            #expect(try await world.api.delete(path + "/\(newPhone)", token: world.bob.accessToken).status == 404)
            try await world.notify([world.ann], text: "still mine")
            #expect(await world.pushes.next()?.deviceToken == newPhone)

            #expect(try await world.api.delete(path + "/\(newPhone)", token: world.ann.accessToken).status == 204)
            #expect(try await world.api.delete(path + "/\(newPhone)", token: world.ann.accessToken).status == 404)
        }
    }
}

/// The payload these tests publish as a producer's realtime event (`{"text": ...}`).
private struct PublishedText: Decodable {
    var text: String
}
