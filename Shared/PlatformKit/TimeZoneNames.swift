import Foundation

/// The IANA time-zone names every service accepts: exactly the zones and links of the tz database, so
/// `Etc/GMT-2` and `US/Eastern` are accepted everywhere and `GMT+2` or `+02:00` (which Foundation parses as
/// offsets, not zones) nowhere.
public enum TimeZoneNames {
    /// The names of the tz database (`Z` zones and `L` links of `tzdata.zi`); Foundation's own list when the
    /// machine has no tz database (the images install `tzdata`, so this is for bare development machines).
    public static let all: Set<String> = load(
        from: ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo")

    /// Whether `name` is an IANA zone that this process can also compute with.
    public static func isValid(_ name: String) -> Bool {
        name.utf8.count <= 64 && all.contains(name) && TimeZone(identifier: name) != nil
    }

    /// The names listed in `directory/tzdata.zi`, or Foundation's list (plus `UTC`) when there is none.
    static func load(from directory: String) -> Set<String> {
        guard let text = try? String(contentsOfFile: directory + "/tzdata.zi", encoding: .utf8) else {
            return Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "Etc/UTC"])
        }
        return names(inTZData: text)
    }

    /// Zone names (`Z name ...`) and link names (`L target name`) from the text of a `tzdata.zi` file.
    public static func names(inTZData text: String) -> Set<String> {
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "Z" where fields.count >= 2: names.insert(String(fields[1]))
            case "L" where fields.count >= 3: names.insert(String(fields[2]))
            default: continue
            }
        }
        return names
    }
}
