import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Testing

@testable import GeoService

/// Reports, the admin queue and mutes at the router: validation and who may.
extension GeoRouterTests {
    /// A post of ann's in her pack, which bob, cat, dan and eve joined.
    func reportedPost(locked: Bool = false) async throws -> Int64 {
        let pack = try await pack(locked: locked)
        let position = locked ? ClientPosition(latitude: 0, longitude: 0) : nil
        for user in ["bob", "cat", "dan", "eve"] {
            _ = try await database.join(pack, user: user, at: position, now: now)
        }
        return try await database.createPost(
            pack: pack, author: "ann", title: "Hi", body: "Hello", tags: [], at: position, admit: {}, now: now
        ).post.id!
    }

    /// The answer's status and body text.
    func text(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, as user: String,
        json: String? = nil
    ) async throws -> (status: HTTPResponse.Status, body: String) {
        var headers: HTTPFields = [.authorization: "Bearer \(user)"]
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { ($0.status, String(buffer: $0.body)) }
    }

    @Test func reportsNameTheirBadFieldsAndAnswerOnePerPerson() async throws {
        let post = try await reportedPost()
        let locked = try await reportedPost(locked: true)
        try await app().test(.router) { client async throws in
            let reports = GeoPaths.posts + "/\(post)/reports"
            let reason = try await call(client, .post, reports, as: "bob", json: #"{"reason":"rude"}"#)
            #expect(reason.problem?.code == "invalid_reason")
            let long = String(repeating: "x", count: ContentReports.noteLength + 1)
            let note = try await call(client, .post, reports, as: "bob", json: #"{"reason":"spam","note":"\#(long)"}"#)
            #expect(note.problem?.code == "invalid_note")
            let unknown = try await call(
                client, .post, GeoPaths.posts + "/999/reports", as: "bob", json: #"{"reason":"spam"}"#)
            #expect(unknown.problem?.code == "not_found")
            let comment = try await call(
                client, .post, GeoPaths.comments + "/999/reports", as: "bob", json: #"{"reason":"spam"}"#)
            #expect(comment.problem?.code == "not_found")
            let own = try await call(client, .post, reports, as: "ann", json: #"{"reason":"spam"}"#)
            #expect(own.problem?.code == "own_item")
            let fenced = try await call(
                client, .post, GeoPaths.posts + "/\(locked)/reports", as: "bob", json: #"{"reason":"spam"}"#,
                headers: Self.outside)
            #expect(fenced.problem?.code == "outside_geofence")
            // one report per person: the second answers the first
            let first = try await text(client, .post, reports, as: "bob", json: #"{"reason":"hate","note":"mean"}"#)
            #expect(first.status == .created)
            let second = try await text(client, .post, reports, as: "bob", json: #"{"reason":"spam"}"#)
            #expect(second.status == .ok)
            #expect(second.body == first.body)
            #expect(!first.body.contains("ann"))
        }
    }

    @Test func anItemReportedByThreePeopleIsMissingToOthersAndMarkedToItsWriter() async throws {
        let post = try await reportedPost()
        try await app().test(.router) { client async throws in
            for reporter in ["bob", "cat", "dan"] {
                let filed = try await call(
                    client, .post, GeoPaths.posts + "/\(post)/reports", as: reporter, json: #"{"reason":"spam"}"#)
                #expect(filed.status == .created)
            }
            #expect(try await call(client, .get, GeoPaths.posts + "/\(post)", as: "eve").status == .notFound)
            let late = try await call(
                client, .post, GeoPaths.posts + "/\(post)/reports", as: "eve", json: #"{"reason":"spam"}"#)
            #expect(late.problem?.code == "not_found")
            let mine = try await text(client, .get, GeoPaths.posts + "/\(post)", as: "ann")
            #expect(mine.status == .ok)
            #expect(mine.body.contains(#""hidden":true"#))
        }
    }

    @Test func theQueueAndItsDecisionsAreForAdminsOnly() async throws {
        let post = try await reportedPost()
        try await app().test(.router) { client async throws in
            _ = try await call(
                client, .post, GeoPaths.posts + "/\(post)/reports", as: "bob", json: #"{"reason":"spam"}"#)
            let decide = GeoPaths.reports + "/posts/\(post)"
            #expect(try await call(client, .get, GeoPaths.reports, as: "bob").problem?.code == "admin_only")
            #expect(try await call(client, .post, decide + "/keep", as: "bob").problem?.code == "admin_only")
            #expect(try await call(client, .post, decide + "/remove", as: "ann").problem?.code == "admin_only")
            #expect(notices.sent.withLock { $0.isEmpty })
            let sort = try await call(client, .get, GeoPaths.reports + "?sort=worst", as: "admin")
            #expect(sort.problem?.code == "invalid_sort")
            let queue = try await text(client, .get, GeoPaths.reports, as: "admin")
            #expect(queue.status == .ok)
            #expect(queue.body.contains(#""writerId":"ann""#))
            #expect(
                try await call(client, .post, GeoPaths.reports + "/pins/\(post)/keep", as: "admin").status == .notFound)
            #expect(try await call(client, .post, decide + "/remove", as: "admin").status == .ok)
            #expect(notices.sent.withLock { $0.map(\.recipients) } == [["ann"]])
            #expect(notices.sent.withLock { $0.map(\.kind) } == ["geo.post_removed"])
            #expect(try await call(client, .post, decide + "/keep", as: "admin").problem?.code == "not_found")
            #expect(try await call(client, .get, GeoPaths.posts + "/\(post)", as: "ann").status == .notFound)
        }
    }

    @Test func mutingNeedsSomeoneElsesReadableWritingAndAnswersOnlyThePseudonym() async throws {
        let post = try await reportedPost()
        try await app().test(.router) { client async throws in
            let mute = GeoPaths.posts + "/\(post)/mute-writer"
            #expect(try await call(client, .put, mute, as: "ann").problem?.code == "own_item")
            #expect(
                try await call(client, .put, GeoPaths.posts + "/999/mute-writer", as: "bob").problem?.code
                    == "not_found")
            #expect(
                try await call(client, .put, GeoPaths.comments + "/999/mute-writer", as: "bob").problem?.code
                    == "not_found")
            let muted = try await text(client, .put, mute, as: "bob")
            #expect(muted.status == .ok)
            #expect(muted.body.contains(#""muted":true"#))
            #expect(!muted.body.contains("ann"))
        }
    }
}
