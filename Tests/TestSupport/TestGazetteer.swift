import Crypto
import Foundation
import GeoService

/// A small gazetteer for tests, filtered from the bundled one once per test process: the places tests search
/// for or pin near, and every place of two million people or more, so that a search still chooses among many.
/// Loading all 34,000 lines into a test's database cost seconds of CPU; one test still loads the whole file
/// (`GeoStoreTests.theBundledGazetteerLoadsWhole`), so a broken shipped file still fails.
public enum TestGazetteer {
    /// The file's path, for `GeoConfiguration.gazetteerFile`.
    public static func path() throws -> String { try file.get().url.path }

    /// How many places the file holds.
    public static func placeCount() throws -> Int { try file.get().places }

    /// Beginnings of the names (folded) tests search for.
    static let names = [
        "zurich", "sao paulo", "munich", "munchen", "paris", "barcel", "amsterdam", "reykjav", "lisbon", "lisboa",
        "porto", "tokyo", "new york", "london", "springfield", "san fran", "st peters", "st. peters", "saint peters",
    ]

    /// Points tests pin, reverse-geocode or search near (latitude, longitude): the places within 0.1 degree of
    /// each are kept, so the nearest place is the one the whole file has. Anadyr is the place nearest the
    /// antimeridian point the engines are compared at.
    static let points: [(Double, Double)] = [
        (38.72, -9.14), (41.15, -8.62), (48.86, 2.32), (35.68, 139.68), (40.71, -74.0), (52.52, 13.40),
        (-33.87, 151.21), (64.73, 177.51),
    ]

    static let minimumPopulation = 2_000_000

    private static let file = Result { try write() }

    private static func write() throws -> (url: URL, places: Int) {
        guard let bundled = GeoResources.gazetteer else { throw CocoaError(.fileNoSuchFile) }
        let lines = try String(contentsOf: bundled, encoding: .utf8).split(separator: "\n").filter(keeps)
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        // Named by its content, so every run shares one file instead of leaving one behind each time; written
        // atomically, as another test process may be writing the same.
        let digest = SHA256.hash(data: data).prefix(8).map { String(format: "%02x", $0) }.joined()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("test-gazetteer-\(digest).tsv")
        try data.write(to: url, options: .atomic)
        return (url, lines.count)
    }

    /// Whether a line (id, name, ASCII name, alternates, country, region, latitude, longitude, population) is kept.
    static func keeps(_ line: Substring) -> Bool {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 9, let latitude = Double(fields[6]), let longitude = Double(fields[7]),
            let population = Int(fields[8])
        else { return false }
        if population >= minimumPopulation { return true }
        if points.contains(where: { abs($0.0 - latitude) <= 0.1 && abs($0.1 - longitude) <= 0.1 }) { return true }
        let spellings = [fields[1], fields[2]] + fields[3].split(separator: "|")
        return spellings.contains { spelling in
            let folded = spelling.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            return names.contains { folded.hasPrefix($0) }
        }
    }
}
