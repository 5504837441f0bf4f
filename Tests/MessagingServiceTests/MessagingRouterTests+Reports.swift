import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Testing

@testable import MessagingService

/// Reporting messages and the admins' queue at the router: validation and who may.
extension MessagingRouterTests {
    /// A message of ann's in the group of ann, bob and cat.
    func reportedMessage() async throws -> Int64 {
        try await group()
        return try await database.send(
            NewMessage(
                conversationID: "g", senderID: "ann", text: "hello", topicID: nil, topicName: nil, mentions: [],
                idempotencyKey: nil, now: Date())
        ).message.id
    }

    @Test func reportsNameTheirBadFieldsAndAnswerOnePerMember() async throws {
        let message = try await reportedMessage()
        try await app().test(.router) { client async throws in
            let reports = MessagingPaths.conversations + "/g/messages/\(message)/reports"
            #expect(
                try await call(client, .post, reports, as: "bob", json: #"{"reason":"rude"}"#).problem?.code
                    == "invalid_reason")
            let long = String(repeating: "x", count: ContentReports.noteLength + 1)
            #expect(
                try await call(client, .post, reports, as: "bob", json: #"{"reason":"spam","note":"\#(long)"}"#)
                    .problem?.code == "invalid_note")
            #expect(
                try await call(
                    client, .post, MessagingPaths.conversations + "/g/messages/999/reports", as: "bob",
                    json: #"{"reason":"spam"}"#
                ).problem?.code == "not_found")
            #expect(
                try await call(client, .post, reports, as: "eve", json: #"{"reason":"spam"}"#).problem?.code
                    == "not_found")
            #expect(
                try await call(client, .post, reports, as: "ann", json: #"{"reason":"spam"}"#).problem?.code
                    == "own_item")
            #expect(try await call(client, .post, reports, as: "bob", json: #"{"reason":"spam"}"#).status == .created)
            #expect(try await call(client, .post, reports, as: "bob", json: #"{"reason":"hate"}"#).status == .ok)
        }
    }

    @Test func theMessageQueueAndItsDecisionsAreForAdminsOnly() async throws {
        let message = try await reportedMessage()
        _ = try await database.reportMessage(
            message, in: "g", by: "bob", reason: .spam, note: nil, threshold: 3, now: Date())
        try await app().test(.router) { client async throws in
            let decide = MessagingPaths.reports + "/\(message)"
            #expect(try await call(client, .get, MessagingPaths.reports, as: "bob").problem?.code == "admin_only")
            #expect(try await call(client, .post, decide + "/keep", as: "bob").problem?.code == "admin_only")
            #expect(try await call(client, .post, decide + "/remove", as: "cat").problem?.code == "admin_only")
            #expect(
                try await call(client, .get, MessagingPaths.reports + "?sort=worst", as: "admin").problem?.code
                    == "invalid_sort")
            #expect(try await call(client, .get, MessagingPaths.reports, as: "admin").status == .ok)
            #expect(
                try await call(client, .post, MessagingPaths.reports + "/999/keep", as: "admin").status == .notFound)
            #expect(try await call(client, .post, decide + "/remove", as: "admin").status == .ok)
            let told = notices.sent.withLock { $0.filter { $0.kind == "messaging.message_removed" } }
            #expect(told.map(\.recipients) == [["ann"]])
            #expect(try await call(client, .post, decide + "/keep", as: "admin").problem?.code == "not_found")
        }
    }
}
