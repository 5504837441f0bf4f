import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import NotificationsService

/// The controllers' edge cases through the router: another user's notices and devices, fields named in the
/// client's words, and each refusal's status and code.
@Suite struct NotificationsRouterTests {
    static let internalToken = "router-test-internal-token"
    static let service: HTTPFields = [HTTPField.Name(PlatformHeaders.internalToken)!: internalToken]
    static let deviceToken = String(repeating: "ab", count: 32)

    func app(_ tokens: RouterTestTokens) async throws -> some ApplicationProtocol {
        try await buildNotificationsApplication(
            NotificationsConfiguration(
                settings: ServiceSettings(
                    service: .notifications, database: .inMemory, internalToken: Self.internalToken),
                verifier: tokens.verifier))
    }

    @Test func anotherUsersNoticeIsNotFound() async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let bob = try await tokens.headers("u-bob")
            let posted = try await client.execute(
                uri: NotificationsPaths.internalNotifications, method: .post, headers: Self.service,
                body: ByteBuffer(
                    string: #"{"recipientIds":["u-ann"],"kind":"social.friend_request","text":"Hi","link":"/v1/x","#
                        + #""producer":"social","idempotencyKey":"k-1"}"#))
            #expect(String(buffer: posted.body) == #"{"created":1,"duplicates":0}"#)
            struct Inbox: Decodable { var items: [NotificationView] }
            let inbox = try await client.execute(uri: NotificationsPaths.notifications, method: .get, headers: ann)
            let id = try PlatformJSON.decoder.decode(Inbox.self, from: Data(inbox.body.readableBytesView)).items[0].id
            let read = try await client.problem(.post, NotificationsPaths.notifications + "/\(id)/read", bob)
            #expect(read.statusCode == 404 && read.detail == "notification was not found.")
            let deleted = try await client.problem(.delete, NotificationsPaths.notifications + "/\(id)", bob)
            #expect(deleted.statusCode == 404)
            let mine = try await client.execute(
                uri: NotificationsPaths.notifications + "/\(id)/read", method: .post, headers: ann)
            #expect(mine.status == .noContent)
            let unread = try await client.problem(.get, NotificationsPaths.notifications + "?unread=maybe", ann)
            #expect(unread.code == "invalid_unread" && unread.detail == "unread: must be true or false.")
        }
    }

    @Test func devicesAndPreferencesNameTheirFields() async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let bob = try await tokens.headers("u-bob")
            let devices = NotificationsPaths.devices
            #expect(try await client.problem(.put, devices + "/xyz", ann).code == "invalid_token")
            let sandbox = try await client.problem(
                .put, devices + "/\(Self.deviceToken)", ann, #"{"environment":"moon"}"#)
            #expect(sandbox.code == "invalid_environment")
            let registered = try await client.execute(
                uri: devices + "/\(Self.deviceToken)", method: .put, headers: ann)
            #expect(registered.status == .ok)
            let stolen = try await client.problem(.delete, devices + "/\(Self.deviceToken)", bob)
            #expect(stolen.statusCode == 404 && stolen.detail == "device was not found.")
            for (body, code) in [
                (#"{"disabledKinds":["Bad Kind"]}"#, "invalid_disabled_kinds"),
                (
                    #"{"disabledKinds":[],"quietHours":{"start":"25:00","end":"07:00","timeZone":"UTC"}}"#,
                    "invalid_quiet_hours.start"
                ),
                (
                    #"{"disabledKinds":[],"quietHours":{"start":"22:00","end":"07:00","timeZone":"Mars/Base"}}"#,
                    "invalid_quiet_hours.time_zone"
                ),
            ] {
                #expect(try await client.problem(.put, NotificationsPaths.preferences, ann, body).code == code)
            }
        }
    }

    @Test func producersAndStreamsAreCheckedBeforeAnythingIsStored() async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            var resume = ann
            resume[HTTPField.Name("Last-Event-ID")!] = "soon"
            #expect(try await client.problem(.get, NotificationsPaths.stream, resume).code == "invalid_last_event_id")
            let badKind = try await client.problem(
                .post, NotificationsPaths.internalNotifications, Self.service,
                #"{"recipientIds":["u-ann"],"kind":"Social!","text":"Hi","link":"/v1/x","producer":"social","#
                    + #""idempotencyKey":"k"}"#)
            #expect(badKind.code == "invalid_kind")
            let badEvent = try await client.problem(
                .post, NotificationsPaths.internalEvents, Self.service,
                #"{"recipientIds":["u-ann"],"type":"message.created","payload":"[]"}"#)
            #expect(badEvent.code == "invalid_payload")
            let sessions = try await client.problem(
                .post, NotificationsPaths.internalEndedSessions, Self.service, #"{"userId":"","sessionIds":[]}"#)
            #expect(sessions.code == "invalid_sessions")
            let unread = try await client.execute(uri: NotificationsPaths.unreadCount, method: .get, headers: ann)
            #expect(String(buffer: unread.body) == #"{"unread":0}"#)
        }
    }

    /// A producer's outbox head in one post: each entry taken in order and answered on its own, a bad one refused
    /// alone.
    @Test func aBatchOfDeliveriesAnswersEachEntry() async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let notice =
                #"{"recipientIds":["u-ann"],"kind":"social.hi","text":"Hi","link":"/v1/x","producer":"social","#
                + #""idempotencyKey":"k1"}"#
            let event = #"{"recipientIds":["u-ann"],"type":"message.created","payload":"{}"}"#
            let batch =
                #"{"entries":[{"kind":"notice","body":\#(notice)},{"kind":"notice","body":{"text":5}},"#
                + #"{"kind":"event","body":\#(event)},{"kind":"letter","body":{}},"#
                + #"{"kind":"notice","body":\#(notice.replacingOccurrences(of: "social.hi", with: "Bad!"))}]}"#
            let answer = try await client.execute(
                uri: NotificationsPaths.internalDeliveries, method: .post, headers: Self.service,
                body: ByteBuffer(string: batch))
            #expect(answer.status == .ok)
            let results = try JSONDecoder().decode(DeliveryBatch.Reply.self, from: Data(answer.body.readableBytesView))
            #expect(results.results.map(\.status) == [201, 400, 202, 400, 400])
            #expect(results.results.map(\.code) == [nil, "invalid_body", nil, "invalid_body", "invalid_kind"])
            let ann = try await tokens.headers("u-ann")
            let unread = try await client.execute(uri: NotificationsPaths.unreadCount, method: .get, headers: ann)
            #expect(String(buffer: unread.body) == #"{"unread":1}"#)
        }
    }

    /// The inbox's bad parameters and producers' bad notices, each named; nothing is stored.
    @Test(arguments: [
        (NotificationsPaths.notifications + "?limit=0", nil, "invalid_limit"),
        (NotificationsPaths.notifications + "?limit=abc", nil, "invalid_limit"),
        (NotificationsPaths.notifications + "?cursor=not-a-cursor", nil, "invalid_cursor"),
        (NotificationsPaths.notifications + "?unread=maybe", nil, "invalid_unread"),
        (
            NotificationsPaths.internalNotifications,
            #"{"recipientIds":[],"kind":"a.b","text":"t","link":"/x","producer":"household","idempotencyKey":"k"}"#,
            "invalid_recipient_ids"
        ),
        (
            NotificationsPaths.internalNotifications,
            #"{"recipientIds":["u-ann"],"kind":"Not A Kind","text":"t","link":"/x","producer":"household","#
                + #""idempotencyKey":"k"}"#,
            "invalid_kind"
        ),
        (
            NotificationsPaths.internalNotifications,
            #"{"recipientIds":["u-ann"],"kind":"a.b","text":"","link":"/x","producer":"household","#
                + #""idempotencyKey":"k"}"#,
            "invalid_text"
        ),
        (
            NotificationsPaths.internalNotifications,
            #"{"recipientIds":["u-ann"],"kind":"a.b","text":"t","link":"https://evil.example","#
                + #""producer":"household","idempotencyKey":"k"}"#,
            "invalid_link"
        ),
        (NotificationsPaths.internalNotifications, #"{"recipientIds":["u-ann"],"kind":"a.b"}"#, "invalid_body"),
    ])
    func aBadRequestIsNamedAndStoresNothing(path: String, notice: String?, code: String) async throws {
        let tokens = await RouterTestTokens()
        try await app(tokens).test(.router) { client in
            let ann = try await tokens.headers("u-ann")
            let problem =
                if let notice {
                    try await client.problem(.post, path, Self.service, notice)
                } else {
                    try await client.problem(.get, path, ann)
                }
            #expect(problem.statusCode == 400 && problem.code == code, "\(problem)")
            let unread = try await client.execute(uri: NotificationsPaths.unreadCount, method: .get, headers: ann)
            #expect(String(buffer: unread.body) == #"{"unread":0}"#)
        }
    }

    @Test(arguments: [
        (
            NotificationsError.invalidField("quietHours.end", "must differ from the start."), 400,
            "invalid_quiet_hours.end", "quietHours.end: must differ from the start."
        ),
        (.notFound("device"), 404, "not_found", "device was not found."),
    ])
    func eachRefusalHasItsAnswer(error: NotificationsError, status: Int, code: String, detail: String) {
        #expect(error.problem.statusCode == status)
        #expect(error.problem.code == code)
        #expect(error.problem.detail == detail)
    }
}
