import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// RFC 7946 GeoJSON, the subset the map answers with: points, longitude first.
struct FeatureCollection: ResponseEncodable, Sendable {
    var type = "FeatureCollection"
    var features: [Feature]
    /// Foreign members (RFC 7946 section 6.1): whether clusters were computed, and at which grid zoom.
    var clustered: Bool
    var zoom: Int
}

struct Feature: Encodable, Sendable {
    struct Point: Encodable, Sendable {
        var type = "Point"
        var coordinates: [Double]
    }

    struct Properties: Encodable, Sendable {
        var cluster: Bool
        var pinId: String?
        var userId: String?
        var placeName: String?
        /// For a cluster, the most personal category it holds (own, then friend, then other).
        var category: PinCategory
        var color: String
        var pointCount: Int?
        var ownCount: Int?
        var friendCount: Int?
        var otherCount: Int?
    }

    var type = "Feature"
    var id: String
    var geometry: Point
    var properties: Properties

    /// A single pin; `named: false` leaves out the owner (a stranger who asked not to be named).
    static func pin(_ point: MapPoint, category: PinCategory, scheme: ColorScheme, named: Bool = true) -> Feature {
        Feature(
            id: String(point.id), geometry: Point(coordinates: [point.longitude, point.latitude]),
            properties: Properties(
                cluster: false, pinId: String(point.id), userId: named ? point.userId : nil, placeName: point.placeName,
                category: category, color: scheme.color(of: category, pin: point.id)))
    }

    static func cluster(
        _ cell: MapGrid.Cell, zoom: Int, count: Int, latitude: Double, longitude: Double, own: Int, friend: Int,
        scheme: ColorScheme
    ) -> Feature {
        let category: PinCategory = own > 0 ? .own : friend > 0 ? .friend : .other
        return Feature(
            id: "cluster-\(zoom)-\(cell.x)-\(cell.y)", geometry: Point(coordinates: [longitude, latitude]),
            properties: Properties(
                cluster: true, category: category, color: scheme.color(of: category), pointCount: count,
                ownCount: own, friendCount: friend, otherCount: max(0, count - own - friend)))
    }
}

extension BoundingBox {
    /// Parses `west,south,east,north` (the GeoJSON `bbox` order, longitude first); each corner must be a
    /// valid coordinate and south must not exceed north.
    static func parse(_ text: String?) throws -> BoundingBox {
        guard let text else { throw Problem.badRequest("missing_bbox", "Pass bbox=west,south,east,north.") }
        // Spaces around a number are allowed ("2.2, 48.8"); trimmed here rather than through Foundation's
        // NSString trimming, which was 1.6% of the map's CPU.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let start = part.firstIndex { !$0.isWhitespace } ?? part.endIndex
            let end = part.lastIndex { !$0.isWhitespace }.map { part.index(after: $0) } ?? start
            return Double(part[start..<end])
        }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3]
        else {
            throw Problem.invalidField("bbox", "must be four numbers: west,south,east,north.")
        }
        try Validate.coordinate(latitude: south, longitude: west)
        try Validate.coordinate(latitude: north, longitude: east)
        guard south <= north else { throw Problem.invalidField("bbox", "south must not be above north.") }
        return BoundingBox(west: west, south: south, east: east, north: north)
    }
}

/// The map is geo's hottest answer: written by hand rather than through `Encodable`'s containers, which were 9% of
/// its CPU. The bytes are those of `encode(to:)` (members sorted, absent optionals left out), which Foundation's
/// encoder still uses; a test compares the two over random maps.
extension FeatureCollection: JSONSelfWriting {
    func writeJSON(to json: JSONOutput) {
        json.raw(#"{"clustered":"#)
        json.bool(clustered)
        json.raw(#","features":["#)
        for (index, feature) in features.enumerated() {
            if index > 0 { json.raw(",") }
            feature.writeJSON(to: json)
        }
        json.raw(#"],"type":"#)
        json.string(type)
        json.raw(#","zoom":"#)
        json.number(zoom)
        json.raw("}")
    }
}

extension Feature {
    fileprivate func writeJSON(to json: JSONOutput) {
        json.raw(#"{"geometry":{"coordinates":["#)
        for (index, coordinate) in geometry.coordinates.enumerated() {
            if index > 0 { json.raw(",") }
            json.number(coordinate)
        }
        json.raw(#"],"type":"#)
        json.string(geometry.type)
        json.raw(#"},"id":"#)
        json.string(id)
        json.raw(#","properties":"#)
        properties.writeJSON(to: json)
        json.raw(#","type":"#)
        json.string(type)
        json.raw("}")
    }
}

extension Feature.Properties {
    fileprivate func writeJSON(to json: JSONOutput) {
        json.raw(#"{"category":"#)
        json.string(category.rawValue)
        json.raw(#","cluster":"#)
        json.bool(cluster)
        json.raw(#","color":"#)
        json.string(color)
        json.number(#","friendCount":"#, friendCount)
        json.number(#","otherCount":"#, otherCount)
        json.number(#","ownCount":"#, ownCount)
        json.string(#","pinId":"#, pinId)
        json.string(#","placeName":"#, placeName)
        json.number(#","pointCount":"#, pointCount)
        json.string(#","userId":"#, userId)
        json.raw("}")
    }
}
