import Foundation
import GRDB
import PlatformKit

extension HouseholdDatabase {
    /// Notes that have not expired, pinned first, newest first.
    func notes(of householdID: String, asMember userID: String, now: Date) async throws -> [NoteRow] {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try NoteRow.fetchAll(
                db,
                sql: """
                    SELECT id, household_id, author_id, text, pinned, created_at, expires_at, photo_type, photo_etag
                    FROM notes WHERE household_id = ? AND expires_at > ? ORDER BY pinned DESC, created_at DESC, id
                    """,
                arguments: [householdID, now])
        }
    }

    func createNote(_ note: NoteRow) async throws {
        try await writer.write { db in
            _ = try Self.members(db, note.householdId, asMember: note.authorId)
            try note.insert(db)
            try Self.record(db, note.householdId, "note_posted", note.authorId, "posted a note", note.createdAt)
        }
    }

    /// Changes a note that has not expired; only its author may delete it, any member may pin it.
    func changeNote(
        _ noteID: String, in householdID: String, by userID: String, now: Date,
        _ change: @Sendable (inout NoteRow) throws -> Void
    ) async throws -> NoteRow {
        try await writer.write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard var note = try Self.liveNote(db, noteID, householdID, now) else { throw Problem.notFound("The note") }
            try change(&note)
            try note.update(db)
            return note
        }
    }

    func deleteNote(_ noteID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await writer.write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let note = try Self.liveNote(db, noteID, householdID, now) else { throw Problem.notFound("The note") }
            guard note.authorId == userID else {
                throw Problem.forbidden("not_note_author", "Only the note's author can delete it.")
            }
            try note.delete(db)
        }
    }

    func setPhoto(
        of noteID: String, in householdID: String, by userID: String, bytes: Data, type: String, etag: String, now: Date
    )
        async throws
    {
        try await writer.write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let note = try Self.liveNote(db, noteID, householdID, now) else { throw Problem.notFound("The note") }
            guard note.authorId == userID else {
                throw Problem.forbidden("not_note_author", "Only the note's author can change its photo.")
            }
            try db.execute(
                sql: "UPDATE notes SET photo = ?, photo_type = ?, photo_etag = ? WHERE id = ?",
                arguments: [bytes, type, etag, noteID])
        }
    }

    func photo(of noteID: String, in householdID: String, asMember userID: String, now: Date) async throws
        -> (bytes: Data, type: String, etag: String)?
    {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard try Self.liveNote(db, noteID, householdID, now) != nil,
                let row = try Row.fetchOne(
                    db, sql: "SELECT photo, photo_type, photo_etag FROM notes WHERE id = ? AND photo IS NOT NULL",
                    arguments: [noteID])
            else { return nil }
            return (row["photo"], row["photo_type"], row["photo_etag"])
        }
    }

    private static func liveNote(_ db: Database, _ noteID: String, _ householdID: String, _ now: Date) throws
        -> NoteRow?
    {
        try NoteRow.fetchOne(
            db,
            sql: """
                SELECT id, household_id, author_id, text, pinned, created_at, expires_at, photo_type, photo_etag
                FROM notes WHERE id = ? AND household_id = ? AND expires_at > ?
                """,
            arguments: [noteID, householdID, now])
    }
}
