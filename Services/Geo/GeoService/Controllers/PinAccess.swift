import Foundation
import PlatformKit

/// Who may see which pin: the owner always, anyone else unless a block stands between them (either way).
/// A hidden pin reads as a missing one, so a blocked user learns nothing.
struct PinAccess: Sendable {
    let database: GeoDatabase
    let graph: any GeoSocialGraph

    /// The pin, and how it stands to the viewer; 404 when missing or hidden.
    func visiblePin(_ rawID: String, to viewer: String) async throws -> (PinRow, PinCategory) {
        guard let id = Int64(rawID), let pin = try await database.pin(id) else { throw Problem.notFound("The pin") }
        return (pin, try await category(of: pin.userId, for: viewer))
    }

    /// How another user's pins stand to the viewer when the viewer may list them by owner: `nil` when a
    /// block stands between them, or when the owner is a stranger who asked not to be named to strangers
    /// (their pins still show on the map, without their name).
    func listedCategory(of owner: String, for viewer: String) async throws -> PinCategory? {
        let category: PinCategory
        do {
            category = try await self.category(of: owner, for: viewer)
        } catch let problem as Problem where problem.statusCode == 404 {
            return nil
        }
        guard category == .other else { return category }
        return try await database.isListedToStrangers(owner) ? category : nil
    }

    /// How another user's pins stand to the viewer; 404 when a block stands between them.
    func category(of owner: String, for viewer: String) async throws -> PinCategory {
        if owner == viewer { return .own }
        let facts = try await graph.relationships(of: viewer, among: [owner])[owner]
        guard facts?.blocked != true else { throw Problem.notFound("The pin") }
        return facts?.friends == true ? .friend : .other
    }
}
