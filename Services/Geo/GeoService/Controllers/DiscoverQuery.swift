import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The search around the client, as its request asks: where and how far (the `Geo-Position` header, `?radius=`),
/// in what order (`?sort=`), which tags (`?tags=a,b`) and which page.
struct DiscoverQuery {
    var discover: Discover
    var tags: [String]
    var page: PageRequest

    init(_ request: Request) throws {
        guard let position = try request.clientPosition() else {
            throw Problem.badRequest(
                "missing_position", "Send your location in the \(ClientPosition.header) header to discover.")
        }
        let query = request.uri.queryParameters
        var radius = PackLimits.discoverRadius
        if let raw = query["radius"].map(String.init) {
            guard let value = Int(raw), (1...PackLimits.maximumDiscoverRadius).contains(value) else {
                throw Problem.invalidField(
                    "radius", "must be whole metres from 1 to \(PackLimits.maximumDiscoverRadius).")
            }
            radius = value
        }
        guard let order = Discover.Order(rawValue: query["sort"].map(String.init) ?? "distance") else {
            throw Problem.invalidField("sort", "must be distance, popularity, created or best.")
        }
        discover = Discover(position: position, radius: radius, order: order)
        let tags = query["tags"].map { $0.split(separator: ",").map(String.init) }
        self.tags = try AnonymousText.tags(tags, required: false)
        self.page = try request.pageRequest()
    }
}
