import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The bulletin board: notes of text, a photo or both, that expire, can be pinned and are edited by their author.
struct NotesController {
    let store: any HouseholdStore
    let live: LiveUpdates
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let notes = HouseholdPaths.households + "/:household/notes"
        router.get(RouterPath(notes), use: list)
        router.post(RouterPath(notes), use: create)
        router.post(RouterPath(notes + "/photo"), use: createPhotoNote)
        router.patch(RouterPath(notes + "/:note"), use: edit)
        router.put(RouterPath(notes + "/:note/pin"), use: pin)
        router.delete(RouterPath(notes + "/:note"), use: delete)
        router.put(RouterPath(notes + "/:note/photo"), use: uploadPhoto)
        router.get(RouterPath(notes + "/:note/photo"), use: photo)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<NoteView> {
        let notes = try await store.notes(
            of: try context.parameters.require("household"), asMember: context.user.userID, now: clock.now)
        return try request.page(of: notes.map(NoteView.init))
    }

    struct CreateRequest: Decodable {
        var text: String
        /// Days until the note disappears; the household's default (7) when absent.
        var expiresInDays: Int?
        /// Hours until the note disappears (1 to 2,160, i.e. 90 days), instead of `expiresInDays`.
        var expiresInHours: Int?
        var pinned: Bool?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<NoteView> {
        let input = try await request.decode(as: CreateRequest.self, context: context)
        return try await post(
            text: try Validate.text(input.text, field: "text", max: 500), photo: nil, pinned: input.pinned ?? false,
            expiresInDays: input.expiresInDays, expiresInHours: input.expiresInHours, context: context)
    }

    /// A note that is a photo alone: the raw JPEG, PNG or WebP body (at most 2 MiB); `?expiresInHours=` or
    /// `?expiresInDays=` and `?pinned=true` as for a text note.
    @Sendable func createPhotoNote(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<NoteView>
    {
        let query = request.uri.queryParameters
        func number(_ name: String) throws -> Int? {
            guard let text = query[Substring(name)] else { return nil }
            guard let value = Int(text) else {
                throw HouseholdError.invalidField(name, "must be a whole number.")
            }
            return value
        }
        let (days, hours) = (try number("expiresInDays"), try number("expiresInHours"))
        let photo = try await HouseholdInput.image(request, maximumBytes: HouseholdInput.maximumPhotoBytes)
        return try await post(
            text: "", photo: photo, pinned: query["pinned"] == "true", expiresInDays: days, expiresInHours: hours,
            context: context)
    }

    private func post(
        text: String, photo: StoredBytes?, pinned: Bool, expiresInDays: Int?, expiresInHours: Int?,
        context: AuthenticatedContext
    ) async throws -> EditedResponse<NoteView> {
        let householdID = try context.parameters.require("household")
        let me = context.user.userID
        let note = try await store.createNote(
            id: UUID().uuidString.lowercased(), in: householdID, by: me, text: text, photo: photo,
            pinned: pinned, expiresInDays: expiresInDays, expiresInHours: expiresInHours, now: clock.now,
            notices: live.reporting(
                notices: { Self.postedNotices($0, by: me) },
                events: { Self.changed("household.note.created", $0, by: me) }
            ))
        return EditedResponse(status: .created, response: NoteView(note))
    }

    /// The other members are told of a new note.
    static func postedNotices(_ change: HouseholdChange<NoteRecord>, by actorID: String) -> [Notice] {
        let others = LiveUpdates.others(change.members, than: actorID)
        guard !others.isEmpty else { return [] }
        let note = change.value
        return [
            Notice(
                recipients: others, kind: "household.note_posted",
                text: note.text.isEmpty ? "A roommate posted a photo." : String(note.text.prefix(80)),
                link: HouseholdPaths.households + "/" + note.householdId + "/notes")
        ]
    }

    struct EditRequest: Decodable {
        /// Empty only on a note with a photo.
        var text: String?
        /// A new timer, counted from now.
        var expiresInDays: Int?
        var expiresInHours: Int?
    }

    /// Changes my note's text or timer.
    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> NoteView {
        let input = try await request.decode(as: EditRequest.self, context: context)
        let text = try input.text.map { $0.isEmpty ? "" : try Validate.text($0, field: "text", max: 500) }
        // A new timer only when one is asked for (so the household default is never used here).
        let hours =
            input.expiresInDays == nil && input.expiresInHours == nil
            ? nil
            : try NoteLifetime.hours(days: input.expiresInDays, hours: input.expiresInHours, householdDefault: 0)
        let note = try await store.editNote(
            try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, text: text, lifetimeHours: hours, now: clock.now, notices: updated(context))
        return NoteView(note)
    }

    /// A changed note's live event, to every member.
    private func updated(_ context: AuthenticatedContext) -> ChangeNotices<HouseholdChange<NoteRecord>> {
        let me = context.user.userID
        return live.reporting(events: { Self.changed("household.note.updated", $0, by: me) })
    }

    static func changed(_ type: String, _ change: HouseholdChange<NoteRecord>, by actorID: String) -> [RealtimeEvent] {
        let note = change.value
        return LiveUpdates.event(
            type, .init(householdId: note.householdId, actorId: actorID, id: note.id, note: NoteView(note)),
            members: change.members)
    }

    struct PinRequest: Decodable {
        var pinned: Bool
    }

    @Sendable func pin(_ request: Request, context: AuthenticatedContext) async throws -> NoteView {
        let input = try await request.decode(as: PinRequest.self, context: context)
        let note = try await store.pinNote(
            try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, pinned: input.pinned, now: clock.now, notices: updated(context))
        return NoteView(note)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let (noteID, householdID) = (
            try context.parameters.require("note"), try context.parameters.require("household")
        )
        let me = context.user.userID
        try await store.deleteNote(
            noteID, in: householdID, by: me, now: clock.now,
            notices: live.deletion(
                "household.note.deleted", in: householdID, by: me, id: { (note: NoteRecord) in note.id }))
        return .noContent
    }

    /// Attaches a photo (the raw JPEG, PNG or WebP body, at most 2 MiB) to my note.
    @Sendable func uploadPhoto(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let photo = try await HouseholdInput.image(request, maximumBytes: HouseholdInput.maximumPhotoBytes)
        try await store.setPhoto(
            of: try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, photo, now: clock.now, notices: updated(context))
        return .noContent
    }

    @Sendable func photo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let photo = try await store.photo(
                of: try context.parameters.require("note"), in: try context.parameters.require("household"),
                asMember: context.user.userID, now: clock.now)
        else { throw HouseholdError.notFound("The photo") }
        return photo.response(to: request)
    }
}
