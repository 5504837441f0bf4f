import Foundation
import PlatformKit
import TestSupport
import Testing

/// Short lists the services hold whole page like every other list: a walk with a small `limit` meets every item
/// once, in the order of the whole list.
@Suite struct ListPagingTests {
    /// An item by what tells it apart: its id (a string or a number) or, without one, its name.
    struct Named: Decodable, Sendable, Equatable {
        var key: String

        enum Keys: String, CodingKey { case id, name }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            if let id = try? container.decode(String.self, forKey: .id) {
                key = id
            } else if let id = try? container.decode(Int.self, forKey: .id) {
                key = String(id)
            } else {
                key = try container.decode(String.self, forKey: .name)
            }
        }
    }

    static func walk(_ api: APIClient, _ path: String, token: String, limit: Int) async throws -> [Named] {
        var items: [Named] = []
        var cursor: String?
        var pages = 0
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let response = try await api.get(
                path + separator + "limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
            #expect(response.status == 200, "\(path): \(response.text)")
            let page = try response.decode(WirePage<Named>.self)
            #expect(page.items.count <= limit)
            items += page.items
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 100
        return items
    }

    @Test func shortListsPageLikeEveryOtherList() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let token = world.ann.accessToken
            for text in ["one", "two", "three", "four", "five"] {
                _ = try await world.api.post(world.path(id, "/notes"), token: token, json: NoteBody(text: text))
                _ = try await world.api.post(world.path(id, "/chores"), token: token, json: ["name": "Chore \(text)"])
            }
            _ = try await world.stack.gateway.post(
                IdentityPaths.login, json: ["identifier": world.ann.username, "password": world.ann.password])
            for path in [
                world.path(id, "/chore-catalogue"), world.path(id, "/chores"), world.path(id, "/notes"),
                world.path(id, "/activity"), IdentityPaths.sessions,
            ] {
                let whole = try await world.api.get(path, token: token).decode(WirePage<Named>.self)
                #expect(whole.nextCursor == nil, "\(path): all of a short list by default")
                #expect(whole.items.count >= 2, "\(path)")
                #expect(try await Self.walk(world.api, path, token: token, limit: 2) == whole.items, "\(path)")
                // a cursor not made by the list is a 400, like everywhere
                #expect(try await world.api.get(path + "?cursor=forged", token: token).status == 400, "\(path)")
                #expect(try await world.api.get(path + "?limit=0", token: token).status == 400, "\(path)")
            }
        }
    }
}
