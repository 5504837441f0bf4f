import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension HouseholdDatabase {
    /// Notes that have not expired, pinned first, newest first. A photo-only note shows once its photo arrived:
    /// a note is never neither text nor photo.
    func notes(of householdID: String, asMember userID: String, now: Date) async throws -> [NoteRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try NoteRecord.filter(
                NoteRecord.Columns.householdId == householdID && NoteRecord.Columns.expiresAt > now
                    && (NoteRecord.Columns.text != "" || NoteRecord.Columns.photoEtag != nil)
            )
            .order(NoteRecord.Columns.pinned.desc, NoteRecord.Columns.createdAt.desc, NoteRecord.Columns.id)
            .fetchAll(db)
        }
    }

    /// Posts a note that expires after `expiresInHours` or `expiresInDays` (the household's default when neither);
    /// returns it with the household's members, for the notice. Empty `text` makes a photo-only note, shown once
    /// its photo is attached.
    func createNote(
        id: String, in householdID: String, by userID: String, text: String, pinned: Bool, expiresInHours: Int?,
        expiresInDays: Int?, now: Date
    ) async throws -> (NoteRecord, members: [String]) {
        try await write { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let lifetime = try NoteLifetime.lifetime(
                hours: expiresInHours, days: expiresInDays, householdDefault: household.noteLifetimeDays)
            let note = NoteRecord(
                id: id, householdId: householdID, authorId: userID, text: text, pinned: pinned, createdAt: now,
                expiresAt: now.addingTimeInterval(lifetime))
            try note.insert(db)
            try Self.record(db, householdID, "note_posted", userID, "posted a note", now)
            return (note, members.map(\.userId))
        }
    }

    /// Pins or unpins a note that has not expired; only its author may.
    func pinNote(_ noteID: String, in householdID: String, by userID: String, pinned: Bool, now: Date) async throws
        -> NoteRecord
    {
        try await editNote(noteID, in: householdID, by: userID, action: pinned ? "pin it" : "unpin it", now: now) {
            $0.pinned = pinned
        }
    }

    /// Changes a note that has not expired; only its author may. `action` names the change for the refusal.
    func editNote(
        _ noteID: String, in householdID: String, by userID: String, action: String, now: Date,
        _ change: @Sendable (inout NoteRecord) throws -> Void
    ) async throws -> NoteRecord {
        try await write { db in
            var note = try Self.liveNote(db, noteID, householdID, userID, now)
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: action) }
            try change(&note)
            guard !note.text.isEmpty || note.photoEtag != nil else {
                throw HouseholdError.invalidField("text", "a note without a photo needs text.")
            }
            try note.update(db)
            return note
        }
    }

    /// Deletes a note that has not expired; only its author may.
    func deleteNote(_ noteID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await write { db in
            let note = try Self.liveNote(db, noteID, householdID, userID, now)
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "delete it") }
            try note.delete(db)
        }
    }

    /// Attaches or replaces the photo of a note that has not expired; only its author may. Returns the other
    /// members when this photo puts a photo-only note on the board (the moment to announce it), else none.
    func setPhoto(of noteID: String, in householdID: String, by userID: String, _ photo: StoredBytes, now: Date)
        async throws -> [String]
    {
        try await write { db in
            let note = try Self.liveNote(db, noteID, householdID, userID, now)
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "change its photo") }
            try db.execute(
                sql: "UPDATE notes SET photo = ?, photo_type = ?, photo_etag = ? WHERE id = ?",
                arguments: [photo.bytes, photo.mediaType, photo.tag.description, noteID])
            guard note.text.isEmpty, note.photoEtag == nil else { return [] }
            return try Self.orderedMemberIDs(db, householdID).filter { $0 != userID }
        }
    }

    /// The photo of a note that has not expired; nil when it has none.
    func photo(of noteID: String, in householdID: String, asMember userID: String, now: Date) async throws
        -> StoredBytes?
    {
        try await read { db in
            _ = try Self.liveNote(db, noteID, householdID, userID, now)
            return try Row.fetchOne(
                db, sql: "SELECT photo, photo_type, photo_etag FROM notes WHERE id = ? AND photo IS NOT NULL",
                arguments: [noteID]
            ).map {
                StoredBytes(bytes: $0["photo"], mediaType: $0["photo_type"], tag: EntityTag(stored: $0["photo_etag"]))
            }
        }
    }

    /// The household's note `noteID` if it has not expired, for a member; 404 otherwise.
    private static func liveNote(
        _ db: Database, _ noteID: String, _ householdID: String, _ userID: String, _ now: Date
    ) throws -> NoteRecord {
        _ = try members(db, householdID, asMember: userID)
        // Compared in SQL, as stored (to the millisecond), like the board's list.
        guard
            let note = try NoteRecord.filter(
                NoteRecord.Columns.id == noteID && NoteRecord.Columns.householdId == householdID
                    && NoteRecord.Columns.expiresAt > now
            ).fetchOne(db)
        else { throw HouseholdError.notFound("The note") }
        return note
    }
}
