import Foundation
import GeoService
import IdentityService
import PlatformKit
import TestSupport
import Testing

/// Helpers for the anonymous packs, all through the gateway.
extension GeoWorld {
    /// A place to put packs: the Sorbonne, Paris.
    static let campus = (latitude: 48.8486, longitude: 2.3431)

    /// The `Geo-Position` header for a point.
    static func at(_ latitude: Double, _ longitude: Double) -> [(String, String)] {
        [("Geo-Position", "\(latitude);\(longitude)")]
    }

    /// The header for the campus, or `metres` due north of it.
    static func atCampus(north metres: Double = 0) -> [(String, String)] {
        at(campus.latitude + metres / 6_371_008.8 * 180 / .pi, campus.longitude)
    }

    struct NewPack: Encodable, Sendable {
        var name = "Library crew"
        var latitude = GeoWorld.campus.latitude
        var longitude = GeoWorld.campus.longitude
        var radiusMeters = 1_000
        var tags = ["campus"]
        var color = "#FF8800"
        var icon: String? = "book"
        var locked: Bool? = false
    }

    /// Creates a pack and returns it.
    func createPack(_ user: TestUser, _ pack: NewPack = NewPack()) async throws -> WirePack {
        let response = try await api.send(
            .POST, GeoPaths.packs, token: user.accessToken, json: pack, headers: Self.atCampus())
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WirePack.self)
    }

    func packID(_ user: TestUser, _ pack: NewPack = NewPack()) async throws -> String {
        try await createPack(user, pack).id
    }

    func join(_ user: TestUser, _ pack: String, at position: [(String, String)] = GeoWorld.atCampus()) async throws {
        let response = try await api.send(
            .PUT, GeoPaths.packs + "/\(pack)/membership", token: user.accessToken, headers: position)
        #expect(response.status == 200, "\(response.text)")
    }

    struct NewPost: Encodable, Sendable {
        var title: String
        var body: String?
        var tags: [String]?
    }

    func sendPost(
        _ user: TestUser, _ pack: String, _ title: String, body: String = "Anyone around?", tags: [String]? = nil,
        at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> APIResponse {
        try await api.send(
            .POST, GeoPaths.packs + "/\(pack)/posts", token: user.accessToken,
            json: NewPost(title: title, body: body, tags: tags), headers: position)
    }

    /// Posts and returns the post's id.
    func post(
        _ user: TestUser, _ pack: String, _ title: String, body: String = "Anyone around?", tags: [String]? = nil,
        at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> String {
        let response = try await sendPost(user, pack, title, body: body, tags: tags, at: position)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WirePackPost.self).id
    }

    func vote(
        _ user: TestUser, _ post: String, _ value: Int, at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> APIResponse {
        try await api.send(
            .PUT, GeoPaths.posts + "/\(post)/vote", token: user.accessToken, json: ["value": value], headers: position)
    }

    func comment(
        _ user: TestUser, _ post: String, _ body: String, at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> APIResponse {
        try await api.send(
            .POST, GeoPaths.posts + "/\(post)/comments", token: user.accessToken, json: ["body": body],
            headers: position)
    }

    /// A GET with a position, answered 200; the answer as `T`.
    func read<T: Decodable>(
        _ type: T.Type, _ user: TestUser, _ path: String, at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> T {
        let response = try await api.get(path, token: user.accessToken, headers: position)
        #expect(response.status == 200, "\(path): \(response.text)")
        return try response.decode(T.self)
    }

    /// The ids of a list's items (packs, posts or comments), in order.
    func ids<Item: Decodable & Sendable & Identifiable>(
        _ type: Item.Type, _ user: TestUser, _ path: String, at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> [String] where Item.ID == String {
        try await read(WirePage<Item>.self, user, path, at: position).items.map(\.id)
    }

    /// The ids of a list of posts, in order.
    func ids(
        _ user: TestUser, _ path: String, at position: [(String, String)] = GeoWorld.atCampus()
    ) async throws -> [String] {
        try await ids(WirePackPost.self, user, path, at: position)
    }

    /// Grants the admin role with the operator's command and returns the user with a refreshed token.
    func makeAdmin(_ user: TestUser) async throws -> TestUser {
        try await stack.makeAdmin(user)
    }

    /// The user with fresh tokens (access tokens last 15 minutes; tests move the clock by hours).
    func renew(_ user: TestUser) async throws -> TestUser {
        try await stack.renew(user)
    }
}
