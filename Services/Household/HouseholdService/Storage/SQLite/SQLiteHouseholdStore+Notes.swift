import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// Notes that have not expired, pinned first, newest first.
    func notes(of householdID: String, asMember userID: String, now: Date) async throws -> [NoteRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try NoteRecord.filter(
                NoteRecord.Columns.householdId == householdID && NoteRecord.Columns.expiresAt > now
            )
            .order(NoteRecord.Columns.pinned.desc, NoteRecord.Columns.createdAt.desc, NoteRecord.Columns.id)
            .fetchAll(db)
        }
    }

    /// Posts a note that expires after `expiresInHours` or `expiresInDays` (the household's default when both
    /// are nil), with a photo or without (a photo-only note has empty text); returns it with the household's
    /// members, for the notice.
    func createNote(
        id: String, in householdID: String, by userID: String, text: String, photo: StoredBytes? = nil,
        pinned: Bool, expiresInDays: Int?, expiresInHours: Int? = nil, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(reporting: notices) { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let hours = try NoteLifetime.hours(
                days: expiresInDays, hours: expiresInHours, householdDefault: household.noteLifetimeDays)
            let note = NoteRecord(
                id: id, householdId: householdID, authorId: userID, text: text, pinned: pinned, createdAt: now,
                expiresAt: now.addingTimeInterval(Double(hours) * 3_600), photoType: photo?.mediaType,
                photoEtag: photo?.tag.description)
            try note.insert(db)
            if let photo {
                try db.execute(sql: "UPDATE notes SET photo = ? WHERE id = ?", arguments: [photo.bytes, id])
            }
            try Self.record(db, householdID, "note_posted", userID, "posted a note", now)
            return HouseholdChange(value: note, members: members.map(\.userId))
        }.value
    }

    /// Pins or unpins a note that has not expired; only its author may (a pin decides what everyone sees first).
    func pinNote(
        _ noteID: String, in householdID: String, by userID: String, pinned: Bool, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(reporting: notices) { db in
            let (found, members) = try Self.liveNote(db, noteID, householdID, userID, now)
            var note = found
            guard note.authorId == userID else {
                throw HouseholdError.notNoteAuthor(action: pinned ? "pin it" : "unpin it")
            }
            note.pinned = pinned
            try note.update(db)
            return HouseholdChange(value: note, members: members)
        }.value
    }

    /// Changes the text and or the timer of a note that has not expired (a new timer counts from now); only its
    /// author may. Text may be empty only on a note with a photo.
    func editNote(
        _ noteID: String, in householdID: String, by userID: String, text: String?, lifetimeHours: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(reporting: notices) { db in
            let (found, members) = try Self.liveNote(db, noteID, householdID, userID, now)
            var note = found
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "edit it") }
            if let text {
                guard !text.isEmpty || note.photoEtag != nil else {
                    throw HouseholdError.invalidField("text", "must not be blank on a note without a photo.")
                }
                note.text = text
            }
            if let lifetimeHours { note.expiresAt = now.addingTimeInterval(Double(lifetimeHours) * 3_600) }
            try note.update(db)
            return HouseholdChange(value: note, members: members)
        }.value
    }

    /// Deletes a note that has not expired; only its author may.
    func deleteNote(
        _ noteID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws {
        _ = try await write(reporting: notices) { db in
            let (note, members) = try Self.liveNote(db, noteID, householdID, userID, now)
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "delete it") }
            try note.delete(db)
            return HouseholdChange(value: note, members: members)
        }
    }

    /// Attaches or replaces the photo of a note that has not expired; only its author may. Returns the note.
    @discardableResult
    func setPhoto(
        of noteID: String, in householdID: String, by userID: String, _ photo: StoredBytes, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord {
        try await write(reporting: notices) { db in
            let (found, members) = try Self.liveNote(db, noteID, householdID, userID, now)
            var note = found
            guard note.authorId == userID else { throw HouseholdError.notNoteAuthor(action: "change its photo") }
            try db.execute(
                sql: "UPDATE notes SET photo = ?, photo_type = ?, photo_etag = ? WHERE id = ?",
                arguments: [photo.bytes, photo.mediaType, photo.tag.description, noteID])
            (note.photoType, note.photoEtag) = (photo.mediaType, photo.tag.description)
            return HouseholdChange(value: note, members: members)
        }.value
    }

    /// The photo of a note that has not expired; nil when it has none.
    func photo(of noteID: String, in householdID: String, asMember userID: String, now: Date) async throws
        -> StoredBytes?
    {
        try await read { db in
            _ = try Self.liveNote(db, noteID, householdID, userID, now).note
            return try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT photo, photo_type, photo_etag FROM notes WHERE id = ? AND photo IS NOT NULL"),
                arguments: [noteID]
            ).map {
                StoredBytes(bytes: $0["photo"], mediaType: $0["photo_type"], tag: EntityTag(stored: $0["photo_etag"]))
            }
        }
    }

    /// The household's note `noteID` if it has not expired, for a member; 404 otherwise.
    private static func liveNote(
        _ db: Database, _ noteID: String, _ householdID: String, _ userID: String, _ now: Date
    ) throws -> (note: NoteRecord, members: [String]) {
        let members = try members(db, householdID, asMember: userID).map(\.userId)
        // Compared in SQL, as stored (to the millisecond), like the board's list.
        guard
            let note = try NoteRecord.filter(
                NoteRecord.Columns.id == noteID && NoteRecord.Columns.householdId == householdID
                    && NoteRecord.Columns.expiresAt > now
            ).fetchOne(db)
        else { throw HouseholdError.notFound("The note") }
        return (note, members)
    }
}
