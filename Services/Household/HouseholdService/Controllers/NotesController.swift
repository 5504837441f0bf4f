import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The bulletin board: notes that expire, can be pinned, and may carry a photo.
struct NotesController {
    let database: HouseholdDatabase
    let events: any NoticeSink
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let notes = HouseholdPaths.households + "/:household/notes"
        router.get(RouterPath(notes), use: list)
        router.post(RouterPath(notes), use: create)
        router.put(RouterPath(notes + "/:note/pin"), use: pin)
        router.delete(RouterPath(notes + "/:note"), use: delete)
        router.put(RouterPath(notes + "/:note/photo"), use: uploadPhoto)
        router.get(RouterPath(notes + "/:note/photo"), use: photo)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> ItemList<NoteView> {
        let notes = try await database.notes(
            of: try context.parameters.require("household"), asMember: context.user.userID, now: clock.now)
        return ItemList(items: notes.map(NoteView.init))
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
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: CreateRequest.self, context: context)
        let text = try Validate.text(input.text, field: "text", max: 500)
        let (note, members) = try await database.createNote(
            id: UUID().uuidString.lowercased(), in: householdID, by: context.user.userID, text: text,
            pinned: input.pinned ?? false, expiresInDays: input.expiresInDays, expiresInHours: input.expiresInHours,
            now: clock.now)
        let others = members.filter { $0 != context.user.userID }
        if !others.isEmpty {
            await events.publish(
                Notice(
                    recipients: others, kind: "household.note_posted", text: String(text.prefix(80)),
                    link: HouseholdPaths.households + "/" + householdID + "/notes"))
        }
        return EditedResponse(status: .created, response: NoteView(note))
    }

    struct PinRequest: Decodable {
        var pinned: Bool
    }

    @Sendable func pin(_ request: Request, context: AuthenticatedContext) async throws -> NoteView {
        let input = try await request.decode(as: PinRequest.self, context: context)
        let note = try await database.pinNote(
            try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, pinned: input.pinned, now: clock.now)
        return NoteView(note)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deleteNote(
            try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, now: clock.now)
        return .noContent
    }

    /// Attaches a photo (the raw JPEG, PNG or WebP body, at most 2 MiB) to my note.
    @Sendable func uploadPhoto(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let photo = try await HouseholdInput.image(request, maximumBytes: HouseholdInput.maximumPhotoBytes)
        try await database.setPhoto(
            of: try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, photo, now: clock.now)
        return .noContent
    }

    @Sendable func photo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let photo = try await database.photo(
                of: try context.parameters.require("note"), in: try context.parameters.require("household"),
                asMember: context.user.userID, now: clock.now)
        else { throw HouseholdError.notFound("The photo") }
        return photo.response(to: request)
    }
}
