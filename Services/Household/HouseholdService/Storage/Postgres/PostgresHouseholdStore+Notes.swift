import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func notes(of householdID: String, asMember userID: String, now: Date) async throws -> [NoteRecord] {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.namedRows(
                """
                SELECT \(unescaped: NoteRecord.columns) FROM notes
                WHERE household_id = \(householdID) AND expires_at > \(now.storedMilliseconds)
                ORDER BY pinned DESC, created_at DESC, id
                """
            ).map(NoteRecord.init)
        }
    }

    func createNote(
        id: String, in householdID: String, by userID: String, text: String, photo: StoredBytes?,
        pinned: Bool, expiresInDays: Int?, expiresInHours: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(locking: householdID, reporting: notices) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let hours = try NoteLifetime.hours(
                days: expiresInDays, hours: expiresInHours, householdDefault: household.noteLifetimeDays)
            let note = NoteRecord(
                id: id, householdId: householdID, authorId: userID, text: text, pinned: pinned, createdAt: now,
                expiresAt: now.addingTimeInterval(Double(hours) * 3_600), photoType: photo?.mediaType,
                photoEtag: photo?.tag.description)
            try await db.execute(
                """
                INSERT INTO notes
                    (id, household_id, author_id, text, pinned, created_at, expires_at, photo, photo_type, photo_etag)
                VALUES (\(note.id), \(householdID), \(userID), \(text), \(pinned), \(now.storedMilliseconds),
                    \(note.expiresAt.storedMilliseconds), \(photo?.bytes), \(note.photoType), \(note.photoEtag))
                """)
            try await db.record(householdID, "note_posted", userID, "posted a note", now)
            return HouseholdChange(value: note, members: members.map(\.userId))
        }.value
    }

    func pinNote(
        _ noteID: String, in householdID: String, by userID: String, pinned: Bool, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(locking: householdID, reporting: notices) { db in
            let (found, members) = try await db.liveNote(noteID, householdID, userID, now)
            var note = found
            guard note.authorId == userID else {
                throw HouseholdError.notNoteAuthor(action: pinned ? "pin it" : "unpin it")
            }
            note.pinned = pinned
            try await db.execute("UPDATE notes SET pinned = \(pinned) WHERE id = \(noteID)")
            return HouseholdChange(value: note, members: members)
        }.value
    }

    func editNote(
        _ noteID: String, in householdID: String, by userID: String, text: String?, lifetimeHours: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(locking: householdID, reporting: notices) { db in
            let (found, members) = try await db.liveNote(noteID, householdID, userID, now)
            var note = found
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "edit it") }
            if let text {
                guard !text.isEmpty || note.photoEtag != nil else {
                    throw HouseholdError.invalidField("text", "must not be blank on a note without a photo.")
                }
                note.text = text
            }
            if let lifetimeHours { note.expiresAt = now.addingTimeInterval(Double(lifetimeHours) * 3_600) }
            try await db.execute(
                """
                UPDATE notes SET text = \(note.text), expires_at = \(note.expiresAt.storedMilliseconds)
                WHERE id = \(noteID)
                """)
            return HouseholdChange(value: note, members: members)
        }.value
    }

    func deleteNote(
        _ noteID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws {
        _ = try await write(locking: householdID, reporting: notices) { db in
            let (note, members) = try await db.liveNote(noteID, householdID, userID, now)
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "delete it") }
            try await db.execute("DELETE FROM notes WHERE id = \(noteID)")
            return HouseholdChange(value: note, members: members)
        }
    }

    @discardableResult
    func setPhoto(
        of noteID: String, in householdID: String, by userID: String, _ photo: StoredBytes, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(locking: householdID, reporting: notices) { db in
            let (found, members) = try await db.liveNote(noteID, householdID, userID, now)
            var note = found
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "change its photo") }
            try await db.execute(
                """
                UPDATE notes SET photo = \(photo.bytes), photo_type = \(photo.mediaType),
                    photo_etag = \(photo.tag.description)
                WHERE id = \(noteID)
                """)
            (note.photoType, note.photoEtag) = (photo.mediaType, photo.tag.description)
            return HouseholdChange(value: note, members: members)
        }.value
    }

    func photo(of noteID: String, in householdID: String, asMember userID: String, now: Date) async throws
        -> StoredBytes?
    {
        try await read { db in
            _ = try await db.liveNote(noteID, householdID, userID, now).note
            return try await db.namedRow(
                "SELECT photo, photo_type, photo_etag FROM notes WHERE id = \(noteID) AND photo IS NOT NULL"
            ).map {
                StoredBytes(
                    bytes: try $0.get("photo"), mediaType: try $0.get("photo_type"),
                    tag: EntityTag(stored: try $0.get("photo_etag")))
            }
        }
    }
}

extension PostgresSession {
    /// The household's note `noteID` if it has not expired, for a member, and the members; 404 otherwise.
    func liveNote(_ noteID: String, _ householdID: String, _ userID: String, _ now: Date) async throws
        -> (note: NoteRecord, members: [String])
    {
        let members = try await members(householdID, asMember: userID).map(\.userId)
        // Compared in SQL, as stored (to the millisecond), like the board's list.
        guard
            let row = try await namedRow(
                """
                SELECT \(unescaped: NoteRecord.columns) FROM notes
                WHERE id = \(noteID) AND household_id = \(householdID) AND expires_at > \(now.storedMilliseconds)
                """)
        else { throw HouseholdError.notFound("The note") }
        return (try NoteRecord(row), members)
    }
}
