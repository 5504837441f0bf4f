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
