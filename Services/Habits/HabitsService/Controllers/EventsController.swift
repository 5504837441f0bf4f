import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// Habit events: at most one per habit per day, with an optional comment, photo and location.
struct EventsController {
    let store: any HabitsStore
    let graph: any FollowingIDsLookup
    let clock: WallClock
    /// "A photograph of size less than 65 536 bytes".
    static let maximumPhotoBytes = 65_535
    static let maximumCommentLength = 20

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(HabitsPaths.habits + "/:habit/events"), use: create)
        router.get(RouterPath(HabitsPaths.events + "/:event"), use: show)
        router.patch(RouterPath(HabitsPaths.events + "/:event"), use: update)
        router.delete(RouterPath(HabitsPaths.events + "/:event"), use: delete)
        router.get(RouterPath(HabitsPaths.events + "/:event/photo"), use: photo)
    }

    struct EventRequest: Decodable {
        /// The day (`YYYY-MM-DD`, my time zone); today by default.
        var date: String?
        /// Empty clears it on an edit.
        var comment: String?
        var location: Coordinate?
        /// On an edit: remove the location.
        var removeLocation: Bool?
        /// A JPEG, PNG or WebP image, base64, under 65,536 bytes decoded; "" removes it on an edit.
        var photo: String?
        /// A measurable habit's value for the day (0 ... 1,000,000): required for one, refused for a yes/no habit.
        var value: Double?
    }

    /// Records today's (or an earlier due day's) event; the whole event is refused if any part is invalid.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<EventView> {
        let input = try await request.decode(as: EventRequest.self, context: context)
        let day = try input.date.map(Self.day)
        let comment = try Validate.optionalText(input.comment, field: "comment", max: Self.maximumCommentLength)
        let location = try input.location.map(Self.location)
        let photo = try await Self.photo(input.photo)
        let value = try input.value.map { try Amounts.thousandths($0, field: "value", positive: false) }
        let event = NewEvent(
            habitID: try context.parameters.require("habit"), userID: context.user.userID, day: day, comment: comment,
            latitude: location?.latitude, longitude: location?.longitude, photo: photo ?? .keep,
            idempotencyKey: try IdempotencyKey.of(request), value: value)
        let (row, created) = try await store.createEvent(event, clock: clock)
        return EditedResponse(status: created ? .created : .ok, response: EventView(row))
    }

    /// Mine, or of someone who approved my follow request.
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> EventView {
        EventView(try await visibleEvent(request, context))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> EventView {
        let input = try await request.decode(as: EventRequest.self, context: context)
        guard input.date == nil else {
            throw Problem.badRequest("date_not_editable", "An event's day cannot change; delete it and add another.")
        }
        let comment = try input.comment.map {
            try Validate.text($0, field: "comment", min: 0, max: Self.maximumCommentLength)
        }
        let location = try input.location.map(Self.location)
        let remove = input.removeLocation == true
        let photo = try await Self.photo(input.photo) ?? .keep
        let value = try input.value.map { try Amounts.thousandths($0, field: "value", positive: false) }
        let row = try await store.updateEvent(
            try context.parameters.id("event", "The event"), owner: context.user.userID, now: clock.now, photo: photo
        ) { event in
            if let comment { event.comment = comment.isEmpty ? nil : comment }
            if let value { event.valueMilli = value }
            if let location {
                event.latitude = location.latitude
                event.longitude = location.longitude
            } else if remove {
                event.latitude = nil
                event.longitude = nil
            }
        }
        return EventView(row)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.deleteEvent(try context.parameters.id("event", "The event"), owner: context.user.userID)
        return .noContent
    }

    @Sendable func photo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let photo = try await store.photo(of: try await visibleEvent(request, context)) else {
            throw HabitsError.notFound("The photo")
        }
        return photo.response(to: request)
    }

    // MARK: Fields

    static func day(_ text: String) throws -> LocalDay {
        guard let day = LocalDay(text) else { throw HabitsError.invalidField("date", "must be a day as YYYY-MM-DD.") }
        return day
    }

    static func location(_ coordinate: Coordinate) throws -> Coordinate {
        try Validate.coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude)
        return coordinate
    }

    /// `nil`: no change; "": remove; else a checked image.
    static func photo(_ base64: String?) async throws -> PhotoChange? {
        guard let base64 else { return nil }
        guard !base64.isEmpty else { return .remove }
        guard let bytes = Data(base64Encoded: base64) else {
            throw HabitsError.invalidField("photo", "must be base64-encoded image bytes.")
        }
        guard bytes.count <= maximumPhotoBytes else {
            throw Problem(
                status: 413, code: "photo_too_large", title: "Photo too large",
                detail: "The photo must be smaller than 65,536 bytes; this one has \(bytes.count).")
        }
        let image = try await ImageKind.clean(bytes, maximumBytes: maximumPhotoBytes, field: "photo")
        return .set(image.bytes, type: image.mediaType)
    }

    private func visibleEvent(_ request: Request, _ context: AuthenticatedContext) async throws -> EventListRecord {
        let event = try await store.event(try context.parameters.id("event", "The event"))
        let me = context.user.userID
        if event.userId != me {
            let followees = try await graph.followingIDs(
                of: me, requestID: request.headers[HTTPField.Name(PlatformHeaders.requestID)!])
            guard followees.contains(event.userId) else { throw HabitsError.notFound("The event") }
        }
        return event
    }
}
