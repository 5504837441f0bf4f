import Foundation
import Logging
import PlatformKit
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The geo store in PostgreSQL through PostgresNIO, for any number of replicas on one database. See ``GeoStore``;
/// schema in ``PostgresGeoMigrations``.
///
/// Nothing a replica answers from lives only in its memory: the pseudonym key, the cluster cells (triggers) and the
/// gazetteer are in the database, loaded once under an advisory lock. The invariants SQLite's single writer kept
/// are kept by locks taken first in each transaction (READ COMMITTED, so every statement after the lock reads what
/// the previous writer committed): a user's pins, colours and memberships behind the user's advisory lock
/// (``PostgresSession/lockUser(_:)``), a pack's members, posts and votes behind the pack's row lock, a pin's photos
/// behind the pin's row lock. The pack jobs that every replica runs claim their rows (`FOR UPDATE SKIP LOCKED`,
/// `DELETE ... RETURNING`), so no pack is warned twice and no counter is taken down twice.
struct PostgresGeoStore: GeoStore {
    let database: PostgresServiceDatabase
    /// The secret of the per-pack pseudonyms (made by the first replica, never leaves the database).
    let pseudonymKey: Data

    /// Connects to `url`, brings its schema up to date, and loads the gazetteer into an empty places table.
    static func open(_ url: PostgresURL, gazetteer: URL?, logger: Logger) async throws -> PostgresGeoStore {
        let database = try await PostgresServiceDatabase.open(
            url, migrations: PostgresGeoMigrations.all, logger: logger)
        // The pool is not running yet: the start-up work goes through one connection of its own.
        let key = try await withOwnConnection(url, logger: logger) { session in
            var generator = SystemRandomNumberGenerator()
            let candidate = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            try await session.execute(
                "INSERT INTO pseudonym_key (id, key) VALUES (1, \(candidate)) ON CONFLICT (id) DO NOTHING")
            if let gazetteer { try await loadGazetteer(from: gazetteer, into: session) }
            return try await session.value("SELECT key FROM pseudonym_key WHERE id = 1", as: Data.self) ?? Data()
        }
        return PostgresGeoStore(database: database, pseudonymKey: key)
    }

    /// Runs `body` on a connection opened for it and closed after (start-up, before the pool runs).
    private static func withOwnConnection<T: Sendable>(
        _ url: PostgresURL, logger: Logger, _ body: (PostgresSession) async throws -> T
    ) async throws -> T {
        let connection = try await PostgresConnection.connect(
            configuration: url.connectionConfiguration(), id: 1, logger: logger)
        do {
            let value = try await body(PostgresSession(connection: connection, logger: logger))
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    var probe: any DatabaseProbe { database }

    var services: [any Service] { [database.service] }

    var outbox: (any OutboxStorage)? { PostgresOutbox(database: database) }

    /// One operation's reads, each statement seeing what is committed.
    func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// One transaction, run again on a serialization failure or deadlock.
    @discardableResult
    func write<T: Sendable>(
        _ isolation: PostgresServiceDatabase.TransactionIsolation = .readCommitted,
        _ body: @Sendable (PostgresSession) async throws -> T
    ) async throws -> T {
        try await database.write(isolation: isolation, body)
    }

    /// Whether a client's `text` holds a NUL character, which PostgreSQL's text cannot (binding it fails the
    /// statement): such a value matches nothing stored.
    static func holdsNUL(_ text: String?) -> Bool {
        text?.utf8.contains(0) ?? false
    }

    // MARK: Rows

    static let pinColumns = """
        pn.id, pn.user_id, pn.latitude, pn.longitude, pn.place_name, pn.place_id, pn.country_code, pn.region, \
        pn.note, pn.visited_on, pn.created_at, pn.updated_at
        """

    static func pin(_ row: PostgresRow) throws -> PinRecord {
        let (id, userID, latitude, longitude, placeName, placeID, country, region, note, visitedOn, createdAt, updatedAt) =
            try row.decode(
                (Int64, String, Double, Double, String, Int64?, String?, String?, String?, String?, Int64, Int64).self)
        return PinRecord(
            id: id, userId: userID, latitude: latitude, longitude: longitude, placeName: placeName, placeId: placeID,
            countryCode: country, region: region, note: note, visitedOn: visitedOn, createdAt: Date(storedMilliseconds: createdAt),
            updatedAt: Date(storedMilliseconds: updatedAt))
    }

    static let placeColumns = """
        pl.id, pl.name, pl.ascii_name, pl.country_code, pl.region, pl.latitude, pl.longitude, pl.population
        """

    static func place(_ row: PostgresRow) throws -> PlaceRecord {
        let (id, name, asciiName, country, region, latitude, longitude, population) = try row.decode(
            (Int64, String, String, String, String?, Double, Double, Int).self)
        return PlaceRecord(
            id: id, name: name, asciiName: asciiName, countryCode: country, region: region, latitude: latitude,
            longitude: longitude, population: population)
    }

    static let packColumns = """
        pk.id, pk.name, pk.latitude, pk.longitude, pk.radius_meters, pk.tags, pk.color, pk.icon, pk.locked, \
        pk.alpha_id, pk.official, pk.member_count, pk.post_count, pk.up_votes, pk.down_votes, pk.created_at, \
        pk.expires_at, pk.warned
        """

    static func pack(_ row: PostgresRow) throws -> PackRecord {
        let (
            id, name, latitude, longitude, radius, tags, color, icon, locked, alpha, official, members, posts, up, down,
            createdAt, expiresAt, warned
        ) = try row.decode(
            (
                Int64, String, Double, Double, Int, String, String, String, Bool, String, Bool, Int, Int, Int, Int,
                Int64, Int64?, Bool
            ).self)
        return PackRecord(
            id: id, name: name, latitude: latitude, longitude: longitude, radiusMeters: radius, tags: tags,
            color: color, icon: icon, locked: locked, alphaId: alpha, official: official, memberCount: members,
            postCount: posts, upVotes: up, downVotes: down, createdAt: Date(storedMilliseconds: createdAt),
            expiresAt: expiresAt.map(Date.init(storedMilliseconds:)), warned: warned)
    }

    static let postColumns = """
        ps.id, ps.pack_id, ps.author_id, ps.pseudonym, ps.title, ps.body, ps.tags, ps.up_votes, ps.down_votes, \
        ps.comment_count, ps.hot, ps.hidden, ps.created_at
        """

    static func post(_ row: PostgresRow) throws -> PostRecord {
        let (id, packID, author, pseudonym, title, body, tags, up, down, comments, hot, hidden, createdAt) =
            try row.decode(
                (Int64, Int64, String, String, String, String, String, Int, Int, Int, Double, Bool, Int64).self)
        return PostRecord(
            id: id, packId: packID, authorId: author, pseudonym: pseudonym, title: title, body: body, tags: tags,
            upVotes: up, downVotes: down, commentCount: comments, hot: hot, hidden: hidden,
            createdAt: Date(storedMilliseconds: createdAt))
    }

    static let commentColumns =
        "c.id, c.post_id, c.author_id, c.pseudonym, c.body, c.created_at, c.hidden, c.up_votes, c.down_votes"

    static func comment(_ row: PostgresRow) throws -> CommentRecord {
        let (id, postID, author, pseudonym, body, createdAt, hidden, up, down) = try row.decode(
            (Int64, Int64, String, String, String, Int64, Bool, Int, Int).self)
        return CommentRecord(
            id: id, postId: postID, authorId: author, pseudonym: pseudonym, body: body,
            createdAt: Date(storedMilliseconds: createdAt), hidden: hidden, upVotes: up, downVotes: down)
    }
}

extension PostgresSession {
    /// Waits for the user's other geo writes and makes the next ones wait (what SQLite's single writer gave every
    /// per-user limit: pins, colours, memberships, live packs). Ends with the transaction.
    func lockUser(_ userID: String) async throws {
        try await execute("SELECT pg_advisory_xact_lock(hashtextextended(\("geo-user:" + userID), 0))")
    }
}
