import Foundation
import PlatformKit
import TestSupport
import Testing

@Suite struct HabitsEventTests {
    @Test func addViewEditAndDeleteAnEvent() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let photo = TestImages.png(size: 100).base64EncodedString()
            let created = try await world.event(
                world.ann, habit,
                EventBody(comment: "Felt great", location: .init(latitude: 53.5, longitude: -113.5), photo: photo))
            #expect(created.status == 201)
            let event = try created.decode(WireHabitEvent.self)
            let id = event.id
            #expect(event.date == "2027-01-04")
            #expect(event.habitTitle == "Run")
            let path = "\(HabitsPaths.events)/\(id)"
            let photoURL = try #require(event.photoUrl)
            let image = try await world.api.get(photoURL, token: world.token(world.ann))
            #expect(image.status == 200)
            #expect(image.headers.first(name: "content-type") == "image/png")
            #expect(image.body == TestImages.png(size: 100))
            // view
            let shown = try await world.api.get(path, token: world.token(world.ann))
            let shownEvent = try shown.decode(WireHabitEvent.self)
            #expect(shownEvent.comment == "Felt great")
            #expect(shownEvent.location?.latitude == 53.5)
            // edit: comment changed, location removed, photo removed
            let edited = try await world.api.patch(
                path, token: world.token(world.ann), json: EventBody(comment: "Slow", removeLocation: true, photo: ""))
            #expect(edited.status == 200)
            let editedEvent = try edited.decode(WireHabitEvent.self)
            #expect(editedEvent.comment == "Slow")
            #expect(editedEvent.location == nil)
            #expect(editedEvent.photoUrl == nil)
            #expect(try await world.api.get(photoURL, token: world.token(world.ann)).status == 404)
            // an edit that is refused changes nothing
            let refused = try await world.api.patch(
                path, token: world.token(world.ann), json: EventBody(comment: String(repeating: "c", count: 21)))
            #expect(refused.problem?.code == "invalid_comment")
            #expect(
                try await world.api.get(path, token: world.token(world.ann)).decode(WireHabitEvent.self).comment
                    == "Slow")
            #expect(
                try await world.api.patch(path, token: world.token(world.ann), json: EventBody(date: "2027-01-03"))
                    .problem?.code == "date_not_editable")
            // delete
            #expect(try await world.api.delete(path, token: world.token(world.ann)).status == 204)
            #expect(try await world.api.get(path, token: world.token(world.ann)).status == 404)
            // the habit is due again today
            #expect(try await world.toDo(world.ann) == ["Run"])
        }
    }

    @Test func oneEventPerHabitPerDayAndRetriesAreIdempotent() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let path = "\(HabitsPaths.habits)/\(habit)/events"
            let first = try await world.api.send(
                .POST, path, token: world.token(world.ann), json: EventBody(comment: "one"),
                headers: [("Idempotency-Key", "k-1")])
            #expect(first.status == 201)
            let retry = try await world.api.send(
                .POST, path, token: world.token(world.ann), json: EventBody(comment: "one"),
                headers: [("Idempotency-Key", "k-1")])
            #expect(retry.status == 200)
            #expect(try retry.decode(WireHabitEvent.self).id == first.decode(WireHabitEvent.self).id)
            let second = try await world.event(world.ann, habit, EventBody(comment: "two"))
            #expect(second.status == 409)
            #expect(second.problem?.code == "event_exists")
            // another day is fine
            try await world.recorded(world.ann, habit, EventBody(date: "2027-01-03"))
        }
    }

    @Test func eventsOnlyForDueDaysFromTheStartUntilToday() async throws {
        // 2027-01-06 is a Wednesday
        try await HabitsWorld.run(at: "2027-01-06T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Gym", weekdays: ["mon", "wed"], startDate: "2027-01-04")
            #expect(
                try await world.event(world.ann, habit, EventBody(date: "2027-01-05")).problem?.code == "event_not_due")
            #expect(
                try await world.event(world.ann, habit, EventBody(date: "2027-01-03")).problem?.code
                    == "event_before_start")
            #expect(
                try await world.event(world.ann, habit, EventBody(date: "2027-01-11")).problem?.code
                    == "event_in_future")
            #expect(
                try await world.event(world.ann, habit, EventBody(date: "2027-1-4")).problem?.code == "invalid_date")
            try await world.recorded(world.ann, habit, EventBody(date: "2027-01-04"))
            try await world.recorded(world.ann, habit)
            // someone else's habit reads as unknown
            #expect(try await world.event(world.bob, habit, EventBody(date: "2027-01-04")).status == 404)
        }
    }

    @Test func commentPhotoAndLocationLimits() async throws {
        try await HabitsWorld.run(at: "2027-01-20T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Draw", startDate: "2027-01-01")
            var day = 0
            func next() -> String { day += 1; return String(format: "2027-01-%02d", day) }
            func post(_ body: EventBody) async throws -> APIResponse {
                var body = body
                body.date = next()
                return try await world.event(world.ann, habit, body)
            }
            #expect(try await post(EventBody(comment: String(repeating: "c", count: 20))).status == 201)
            #expect(
                try await post(EventBody(comment: String(repeating: "c", count: 21))).problem?.code == "invalid_comment"
            )
            #expect(try await post(EventBody(comment: "")).status == 201)
            for image in [TestImages.png(size: 65_535), TestImages.jpeg(size: 65_535), TestImages.webp(size: 65_534)] {
                #expect(try await post(EventBody(photo: image.base64EncodedString())).status == 201)
            }
            // exception 3: too large is refused with a clear error and nothing is saved
            let large = try await post(
                EventBody(comment: "big", photo: TestImages.png(size: 65_536).base64EncodedString()))
            #expect(large.status == 413)
            #expect(large.problem?.code == "photo_too_large")
            let text = try await post(EventBody(photo: Data("not an image".utf8).base64EncodedString()))
            #expect(text.status == 415)
            #expect(try await post(EventBody(photo: "%%%")).problem?.code == "invalid_photo")
            // exception 5: a location that is not a real position is refused
            #expect(try await post(EventBody(location: .init(latitude: 90, longitude: 180))).status == 201)
            #expect(
                try await post(EventBody(location: .init(latitude: 90.0001, longitude: 0))).problem?.code
                    == "invalid_latitude")
            #expect(
                try await post(EventBody(location: .init(latitude: 0, longitude: -180.0001))).problem?.code
                    == "invalid_longitude")
            let history = try await world.api.get(HabitsPaths.history + "?limit=100", token: world.token(world.ann))
            #expect(try world.events(history).count == 6)
            #expect(try !world.events(history).contains { $0.comment == "big" })
        }
    }

    @Test func deletingAHabitRemovesItsEvents() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let event = try await world.recorded(
                world.ann, habit, EventBody(location: .init(latitude: 1, longitude: 1)))
            #expect(
                try await world.api.delete("\(HabitsPaths.habits)/\(habit)", token: world.token(world.ann)).status
                    == 204)
            #expect(
                try await world.api.get("\(HabitsPaths.events)/\(event)", token: world.token(world.ann)).status == 404)
            #expect(
                try world.events(try await world.api.get(HabitsPaths.history, token: world.token(world.ann))).isEmpty)
            let near = try await world.api.get(
                HabitsPaths.historyMap + "?latitude=1&longitude=1", token: world.token(world.ann))
            #expect(try near.decode(WireHabitEventMap.self).features.isEmpty)
        }
    }

    @Test func othersCannotSeeOrChangeMyEvents() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "Run", startDate: "2027-01-01")
            let event = try await world.recorded(
                world.ann, habit, EventBody(photo: TestImages.png(size: 60).base64EncodedString()))
            let path = "\(HabitsPaths.events)/\(event)"
            #expect(try await world.api.get(path, token: world.token(world.bob)).status == 404)
            #expect(try await world.api.get(path + "/photo", token: world.token(world.bob)).status == 404)
            #expect(
                try await world.api.patch(path, token: world.token(world.bob), json: EventBody(comment: "x")).status
                    == 404)
            #expect(try await world.api.delete(path, token: world.token(world.bob)).status == 404)
            #expect(
                try await world.api.get("\(HabitsPaths.events)/nonsense", token: world.token(world.ann)).status == 404)
            // once ann approves bob's follow request, bob may look (but still not change)
            try await world.follow(world.bob, approvedBy: world.ann)
            #expect(try await world.api.get(path, token: world.token(world.bob)).status == 200)
            #expect(try await world.api.get(path + "/photo", token: world.token(world.bob)).status == 200)
            #expect(try await world.api.delete(path, token: world.token(world.bob)).status == 404)
        }
    }
}
