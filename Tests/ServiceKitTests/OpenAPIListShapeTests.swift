import Foundation
import Testing

/// Every list in every service's OpenAPI document pages one way: `limit` and `cursor` in, `{items, nextCursor}`
/// out. The exceptions say what they do instead: ranked lists answer their best `limit` (nextCursor always null)
/// and a conversation's messages page both ways from an anchor.
@Suite struct OpenAPIListShapeTests {
    static let ranked: Set<String> = [
        "/v1/geo/places", "/v1/social/suggestions", "/v1/households/{household}/groceries/suggestions",
    ]
    static let twoWay: Set<String> = ["/v1/messaging/conversations/{conversationId}/messages"]
    /// One thing whose `items` are its parts (a trip's lines), not a list.
    static let notLists: Set<String> = ["/v1/households/{household}/trips/{trip}"]

    static var documents: [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let services = root.appendingPathComponent("Services")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: services.path)) ?? []
        return names.sorted().map {
            services.appendingPathComponent("\($0)/\($0)Service/OpenAPI/openapi.json")
        }
    }

    @Test func everyListTakesLimitAndCursorAndAnswersNextCursor() throws {
        #expect(Self.documents.count == 7)
        var lists = 0
        for url in Self.documents {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for (path, operations) in paths {
                guard let get = operations["get"] as? [String: Any],
                    let ok = (get["responses"] as? [String: Any])?["200"] as? [String: Any],
                    var schema = ((ok["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                        as? [String: Any]
                else { continue }
                if let reference = schema["$ref"] as? String {
                    schema = schemas[String(reference.split(separator: "/").last!)] as? [String: Any] ?? [:]
                }
                let properties = schema["properties"] as? [String: Any] ?? [:]
                guard properties["items"] != nil, !Self.notLists.contains(path) else { continue }
                lists += 1
                let parameters = Set(
                    (get["parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
                if Self.twoWay.contains(path) {
                    #expect(properties["olderCursor"] != nil && properties["newerCursor"] != nil, "\(path)")
                    continue
                }
                #expect(parameters.contains("limit"), "\(path) takes limit")
                #expect(properties["nextCursor"] != nil, "\(path) answers nextCursor")
                if !Self.ranked.contains(path) { #expect(parameters.contains("cursor"), "\(path) takes cursor") }
            }
        }
        #expect(lists > 40)
    }
}
