import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

/// Who may see and write what in packs. An expired pack is a missing one. A locked pack's content (posts,
/// comments, votes) is visible and writable only from inside its radius; the pack itself stays listed (name,
/// tags, distance) with `contentVisible: false`. Writing needs membership as well.
struct PackAccess: Sendable {
    let database: GeoDatabase
    let clock: WallClock

    /// The live pack named in the path; 404 otherwise.
    func pack(_ raw: String) async throws -> PackRow {
        guard let id = Int64(raw), let pack = try await database.livePack(id, now: clock.now) else {
            throw Problem.notFound("The pack")
        }
        return pack
    }

    /// The pack, when its content may be seen from `position`.
    func readablePack(_ raw: String, at position: ClientPosition?) async throws -> PackRow {
        let pack = try await pack(raw)
        try Self.checkContent(of: pack, at: position)
        return pack
    }

    /// The post named in the path, when it is visible to the viewer and its pack's content is from `position`.
    func readablePost(_ raw: String, viewer: String, at position: ClientPosition?) async throws -> PostListing {
        guard let id = Int64(raw), let listing = try await database.post(id, viewer: viewer, now: clock.now) else {
            throw Problem.notFound("The post")
        }
        try Self.checkContent(of: listing.pack, at: position)
        return listing
    }

    static func contentVisible(_ pack: PackRow, at position: ClientPosition?) -> Bool {
        guard pack.locked else { return true }
        return position?.isInside(latitude: pack.latitude, longitude: pack.longitude, radius: pack.radiusMeters)
            ?? false
    }

    static func checkContent(of pack: PackRow, at position: ClientPosition?) throws {
        guard !contentVisible(pack, at: position) else { return }
        throw Problem.forbidden(
            "outside_geofence",
            position == nil
                ? "This pack is locked to its area: send your location in the \(ClientPosition.header) header."
                : "This pack is locked to its area, and you are outside it.")
    }

    /// The client's position from the request's `Geo-Position` header, if sent.
    static func position(of request: Request) throws -> ClientPosition? {
        try ClientPosition.parse(request.headers[HTTPField.Name(ClientPosition.header)!])
    }
}
