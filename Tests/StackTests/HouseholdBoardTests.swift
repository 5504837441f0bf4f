import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// The bulletin board, the activity feed, and the membership check on every household route.
@Suite struct HouseholdBoardTests {
    static let png = TestImages.png(size: 72)

    @Test func notesExpirePinnedOnesComeFirstAndOnlyAuthorsDelete() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let short = try await world.api.post(
                world.path(id, "/notes"), token: world.ann.accessToken,
                json: NoteBody(text: "Pizza tonight!", expiresInDays: 1))
            #expect(short.status == 201)
            #expect(world.notices.all.last?.kind == "household.note_posted")
            let long = try await world.api.post(
                world.path(id, "/notes"), token: world.bob.accessToken,
                json: NoteBody(text: "Wifi password is on the fridge"))
            let longID = try long.decode(WireNote.self).id
            // only the author pins: ann may not pin bob's note, bob may
            let othersPin = try await world.api.send(
                .PUT, world.path(id, "/notes/\(longID)/pin"), token: world.ann.accessToken, json: ["pinned": true])
            #expect(othersPin.status == 403)
            #expect(othersPin.problem?.code == "not_note_author")
            let pinned = try await world.api.send(
                .PUT, world.path(id, "/notes/\(longID)/pin"), token: world.bob.accessToken, json: ["pinned": true])
            #expect(try pinned.decode(WireNote.self).pinned == true)
            let othersUnpin = try await world.api.send(
                .PUT, world.path(id, "/notes/\(longID)/pin"), token: world.ann.accessToken, json: ["pinned": false])
            #expect(othersUnpin.status == 403)
            let board = try await world.api.get(world.path(id, "/notes"), token: world.ann.accessToken)
            #expect(
                try board.decode(WireItems<WireNote>.self).items.map(\.text) == [
                    "Wifi password is on the fridge", "Pizza tonight!",
                ])
            let notMine = try await world.api.delete(world.path(id, "/notes/\(longID)"), token: world.ann.accessToken)
            #expect(notMine.status == 403)
            // a day later the short note is gone, the default-lifetime one (7 days) stays
            try await world.advance(days: 1)
            let later = try await world.api.get(world.path(id, "/notes"), token: world.token(world.ann))
            #expect(try later.decode(WireItems<WireNote>.self).items.map(\.text) == ["Wifi password is on the fridge"])
            try await world.advance(days: 6)
            let empty = try await world.api.get(world.path(id, "/notes"), token: world.token(world.ann))
            #expect(try empty.decode(WireItems<WireNote>.self).items.isEmpty)
            #expect(
                try await world.api.delete(world.path(id, "/notes/\(longID)"), token: world.token(world.bob)).status
                    == 404)
        }
    }

    @Test func aNoteMayLastHours() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let brief = try await world.api.post(
                world.path(id, "/notes"), token: world.ann.accessToken,
                json: NoteBody(text: "Oven is on", expiresInHours: 2))
            #expect(brief.status == 201)
            let note = try brief.decode(WireNote.self)
            #expect(abs(note.expiresAt.timeIntervalSince(note.createdAt) - 7_200) < 1)
            let both = try await world.api.post(
                world.path(id, "/notes"), token: world.ann.accessToken,
                json: NoteBody(text: "x", expiresInDays: 1, expiresInHours: 1))
            #expect(both.problem?.code == "invalid_expires_in_hours")
            try await world.advance(days: 3.0 / 24)
            let later = try await world.api.get(world.path(id, "/notes"), token: world.token(world.bob))
            #expect(try later.decode(WireItems<WireNote>.self).items.isEmpty)
        }
    }

    @Test func aNoteCarriesACheckedPhoto() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let note = try await world.api.post(
                world.path(id, "/notes"), token: world.ann.accessToken, json: NoteBody(text: "Look at this"))
            let noteID = try note.decode(WireNote.self).id
            let fake = try await world.api.put(
                world.path(id, "/notes/\(noteID)/photo"), token: world.ann.accessToken, body: Data("GIF89a".utf8))
            #expect(fake.status == 415)
            let huge = try await world.api.put(
                world.path(id, "/notes/\(noteID)/photo"), token: world.ann.accessToken,
                body: Self.png + Data(count: 2 << 20))
            #expect(huge.status == 413)
            let byBob = try await world.api.put(
                world.path(id, "/notes/\(noteID)/photo"), token: world.bob.accessToken, body: Self.png)
            #expect(byBob.status == 403)
            #expect(
                try await world.api.put(
                    world.path(id, "/notes/\(noteID)/photo"), token: world.ann.accessToken, body: Self.png
                ).status == 204)
            let photo = try await world.api.get(world.path(id, "/notes/\(noteID)/photo"), token: world.bob.accessToken)
            #expect(photo.body == Self.png)
            let etag = try #require(photo.headers.first(name: "etag"))
            #expect(
                try await world.api.get(
                    world.path(id, "/notes/\(noteID)/photo"), token: world.bob.accessToken,
                    headers: [("If-None-Match", etag)]
                ).status == 304)
        }
    }

    @Test func theActivityFeedShowsTheLatestThirtyNewestFirst() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            for index in 0..<35 {
                _ = try await world.api.post(
                    world.path(id, "/notes"), token: world.ann.accessToken, json: NoteBody(text: "note \(index)"))
            }
            let feed = try await world.api.get(world.path(id, "/activity"), token: world.bob.accessToken)
            let items = try feed.decode(WireItems<WireActivity>.self).items
            #expect(items.count == 30)
            #expect(items.first?.kind == "note_posted")
            let ids = items.map(\.id)
            #expect(ids == ids.sorted(by: >))
        }
    }

    /// Cat, in a household of her own, tries every route of Ann's household and learns nothing.
    @Test func aMemberOfAnotherHouseholdCannotReachAnyRoute() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.household(world.cat)
            let chore = try await world.api.post(
                world.path(id, "/chores"), token: world.ann.accessToken,
                json: ChoreBody(
                    name: "Mop the floors", schedule: .init(kind: "once"), assignment: .init(kind: "rotating")))
            let choreID = try chore.decode(WireChore.self).id
            let note = try await world.api.post(
                world.path(id, "/notes"), token: world.ann.accessToken, json: NoteBody(text: "private"))
            let noteID = try note.decode(WireNote.self).id
            let attempts: [(HTTPMethod, String, Data?)] = [
                (.GET, "", nil), (.POST, "/invitations", Data(#"{"username":"cat"}"#.utf8)), (.POST, "/leave", nil),
                (.DELETE, "/members/\(world.bob.id)", nil), (.GET, "/activity", nil), (.GET, "/chore-catalogue", nil),
                (.GET, "/chores", nil), (.POST, "/chores", Data(#"{"name":"Sneaky"}"#.utf8)),
                (.PATCH, "/chores/\(choreID)", Data(#"{"name":"Renamed"}"#.utf8)), (.DELETE, "/chores/\(choreID)", nil),
                (.POST, "/chores/\(choreID)/completions", Data("{}".utf8)), (.GET, "/completions", nil),
                (.GET, "/statistics", nil), (.GET, "/statistics/chart.svg", nil), (.GET, "/notes", nil),
                (.POST, "/notes", Data(#"{"text":"hi"}"#.utf8)),
                (.PUT, "/notes/\(noteID)/pin", Data(#"{"pinned":true}"#.utf8)),
                (.DELETE, "/notes/\(noteID)", nil), (.PUT, "/notes/\(noteID)/photo", Self.png),
                (.GET, "/notes/\(noteID)/photo", nil),
            ]
            for (method, rest, body) in attempts {
                let response = try await world.api.send(
                    method, world.path(id, rest), token: world.cat.accessToken, body: body,
                    headers: body == nil ? [] : [("Content-Type", "application/json")])
                #expect(response.status == 404, "\(method) \(rest) answered \(response.status)")
            }
            // nothing changed
            let chores = try await world.api.get(world.path(id, "/chores"), token: world.ann.accessToken)
            #expect(try chores.decode(WireItems<WireChore>.self).items.first?.name == "Mop the floors")
            let notes = try await world.api.get(world.path(id, "/notes"), token: world.ann.accessToken)
            #expect(try notes.decode(WireItems<WireNote>.self).items.first?.pinned == false)
            let members = try await world.api.get(world.path(id), token: world.ann.accessToken)
            #expect(try members.decode(WireHousehold.self).members.count == 2)
        }
    }
}

struct NoteBody: Encodable, Sendable {
    var text: String
    var expiresInDays: Int? = nil
    var expiresInHours: Int? = nil
}
