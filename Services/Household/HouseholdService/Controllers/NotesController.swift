import Crypto
import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The bulletin board: notes that expire, can be pinned, and may carry a photo.
struct NotesController {
    let database: HouseholdDatabase
    let events: any NoticeSink
    let clock: WallClock
    static let maximumPhotoBytes = 2 << 20
    static let maximumLifetimeDays = 90

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
        var pinned: Bool?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<NoteView> {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: CreateRequest.self, context: context)
        let text = try Validate.text(input.text, field: "text", max: 500)
        let (household, members) = try await database.household(id: householdID, asMember: context.user.userID)
        let days = input.expiresInDays ?? household.noteLifetimeDays
        guard (1...Self.maximumLifetimeDays).contains(days) else {
            throw Problem.invalidField("expiresInDays", "must be from 1 to \(Self.maximumLifetimeDays).")
        }
        let now = clock.now
        let note = NoteRow(
            id: UUID().uuidString.lowercased(), householdId: householdID, authorId: context.user.userID, text: text,
            pinned: input.pinned ?? false, createdAt: now, expiresAt: now.addingTimeInterval(Double(days) * 86_400))
        try await database.createNote(note)
        let others = members.map(\.userId).filter { $0 != context.user.userID }
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
        let note = try await database.changeNote(
            try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, now: clock.now
        ) { $0.pinned = input.pinned }
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
        let body = try await request.body.collect(upTo: Self.maximumPhotoBytes)
        let kind = try ImageKind.validate(body.readableBytesView, maximumBytes: Self.maximumPhotoBytes)
        let bytes = Data(body.readableBytesView)
        let etag = Self.etag(of: bytes)
        try await database.setPhoto(
            of: try context.parameters.require("note"), in: try context.parameters.require("household"),
            by: context.user.userID, bytes: bytes, type: kind.mediaType, etag: etag, now: clock.now)
        return .noContent
    }

    @Sendable func photo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let photo = try await database.photo(
                of: try context.parameters.require("note"), in: try context.parameters.require("household"),
                asMember: context.user.userID, now: clock.now)
        else { throw Problem.notFound("The photo") }
        return Self.imageResponse(photo, for: request)
    }

    /// A strong ETag for stored image bytes.
    static func etag(of bytes: Data) -> String {
        "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// A stored image as a response, or 304 when the client's copy is current.
    static func imageResponse(_ image: (bytes: Data, type: String, etag: String), for request: Request) -> Response {
        var headers: HTTPFields = [.eTag: image.etag, .cacheControl: "private, max-age=60, must-revalidate"]
        if request.headers[.ifNoneMatch] == image.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = image.type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }
}
