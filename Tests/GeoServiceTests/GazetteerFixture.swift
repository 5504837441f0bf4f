import Foundation

/// Small gazetteer files written as `make-gazetteer.py` writes them, for tests that load one.
enum GazetteerFixture {
    /// A place a line: id, name, ASCII name, alternates, country, region, latitude, longitude, population.
    typealias Line = (Int64, String, String, String, String, String, Double, Double, Int)

    /// Three Bavarian villages far below `cities15000`, and a town in Cornwall.
    static let villages: [Line] = [
        (2_900_001, "Oberhäusl", "Oberhausl", "Oberhaeusl", "DE", "Bavaria", 47.60000, 12.10000, 612),
        (2_900_002, "Unterbrunn am See", "Unterbrunn am See", "", "DE", "Bavaria", 47.65000, 12.20000, 540),
        (2_900_003, "Kleinmoos", "Kleinmoos", "", "DE", "Bavaria", 47.55000, 12.05000, 980),
        (2_900_004, "Polzeath", "Polzeath", "", "GB", "England", 50.57500, -4.91800, 700),
    ]

    /// Writes `lines` to a new file in the temporary folder and returns it.
    static func write(_ lines: [Line]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-\(UUID().uuidString).tsv")
        let text = lines.map { line in
            [
                "\(line.0)", line.1, line.2, line.3, line.4, line.5, String(format: "%.5f", line.6),
                String(format: "%.5f", line.7), "\(line.8)",
            ].joined(separator: "\t") + "\n"
        }.joined()
        try Data(text.utf8).write(to: url)
        return url
    }
}
