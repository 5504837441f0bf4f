import Foundation
import PlatformKit
import TestSupport
import Testing

@testable import GeoService

/// The map writes its JSON by hand (``FeatureCollection/writeJSON(to:)``); Foundation's encoder, which the platform
/// falls back to and which reads `encode(to:)`, must give the same bytes for every map.
@Suite struct MapJSONTests {
    @Test(arguments: propertySeeds()) func theHandWrittenMapIsTheEncodedMap(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let names = ["Café \"Le Rond\"", "a/b\\c", "tab\there", "line\nbreak", "\u{1}\u{1f}", "東京", "🙂", ""]
        let scheme = ColorScheme()
        for round in 0..<500 {
            var features: [Feature] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let latitude = Double.random(in: -90...90, using: &generator)
                let longitude = Double.random(in: -180...180, using: &generator)
                if Bool.random(using: &generator) {
                    let point = MapPoint(
                        id: Int64.random(in: 1...Int64.max, using: &generator), userId: UUID().uuidString,
                        latitude: latitude, longitude: longitude, placeName: names.randomElement(using: &generator)!)
                    features.append(
                        Feature.pin(
                            point, category: PinCategory.allCases.randomElement(using: &generator)!, scheme: scheme,
                            named: Bool.random(using: &generator)))
                } else {
                    let count = Int.random(in: 2...1_000_000, using: &generator)
                    let own = Int.random(in: 0...count, using: &generator)
                    features.append(
                        Feature.cluster(
                            MapGrid.Cell(x: Int.random(in: 0...4096), y: Int.random(in: 0...4096)),
                            zoom: Int.random(in: 0...22), count: count, latitude: latitude, longitude: longitude,
                            own: own, friend: Int.random(in: 0...(count - own)), scheme: scheme))
                }
            }
            let map = FeatureCollection(
                features: features, clustered: Bool.random(using: &generator), zoom: round % 23)
            let written = try PlatformJSONWriter.encode(map)
            let encoded = try PlatformJSON.encoder.encode(map)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        }
    }

    @Test func aMapJSONCannotHoldIsRefusedAsBefore() {
        let map = FeatureCollection(
            features: [
                Feature.cluster(
                    MapGrid.Cell(x: 1, y: 1), zoom: 3, count: 2, latitude: .nan, longitude: 0, own: 0, friend: 0,
                    scheme: ColorScheme())
            ], clustered: true, zoom: 3)
        #expect(throws: EncodingError.self) { try PlatformJSONWriter.encode(map) }
    }
}
