import Crypto
import Foundation

/// A gazetteer file as `Services/Geo/Gazetteer/make-gazetteer.py` writes it: one place a line, tab-separated (id,
/// name, ASCII name, '|'-separated alternate names, country code, region, latitude, longitude, population; files
/// made before regions have no region field). The stores keep its fingerprint with the places they loaded from it,
/// and load another file's places in their stead.
struct GazetteerFile: Sendable {
    /// One place and its distinct names (name, ASCII name, alternates) with their folded forms, in file order.
    struct Place: Sendable {
        var record: PlaceRecord
        var names: [Name]
    }

    struct Name: Sendable {
        var name: String
        var folded: String
    }

    let data: Data
    /// The SHA-256 of the file's bytes, in hex.
    let sha256: String

    /// Reads the file (a few MB to 20 MB: call it off the event loops).
    init(contentsOf url: URL) throws {
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GazetteerError.unreadable(url.path)
        }
        sha256 = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Its places, biggest first (then by id): the stores number names in this order, so that search reads the
    /// biggest places' names first. Lines that are not a place are skipped; a file without any is refused (a wrong
    /// file named by `GAZETTEER_FILE` would otherwise empty the search).
    func places() throws -> [Place] {
        var places: [Place] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 8 || fields.count == 9 else { continue }
            let region = fields.count == 9 && !fields[5].isEmpty ? String(fields[5]) : nil
            let tail = fields.suffix(3).map(String.init)
            guard let id = Int64(fields[0]), let latitude = Double(tail[0]), let longitude = Double(tail[1]),
                let population = Int(tail[2]), (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { continue }
            var seen: Set<String> = []
            var names: [Name] = []
            for alias in ([fields[1], fields[2]] + fields[3].split(separator: "|")).map(String.init)
            where !alias.isEmpty {
                let folded = PlaceMatching.fold(alias)
                guard seen.insert(folded).inserted else { continue }
                names.append(Name(name: alias, folded: folded))
            }
            places.append(
                Place(
                    record: PlaceRecord(
                        id: id, name: String(fields[1]), asciiName: String(fields[2]), countryCode: String(fields[4]),
                        region: region, latitude: latitude, longitude: longitude, population: population),
                    names: names))
        }
        guard !places.isEmpty else { throw GazetteerError.noPlaces(sha256) }
        return places.sorted {
            ($1.record.population, $0.record.id) < ($0.record.population, $1.record.id)
        }
    }
}

/// A gazetteer file the service cannot use: it stops at start rather than search an empty or stale gazetteer.
enum GazetteerError: Error, CustomStringConvertible {
    case unreadable(String)
    case noPlaces(String)

    var description: String {
        switch self {
        case .unreadable(let path): "GAZETTEER_FILE: cannot read \(path)"
        case .noPlaces(let sha256): "GAZETTEER_FILE: no place in the file (SHA-256 \(sha256))"
        }
    }
}
