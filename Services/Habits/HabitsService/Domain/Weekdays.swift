import PlatformKit

/// The days of the week a habit is due, as a bit set (bit 0 = Monday ... bit 6 = Sunday).
struct Weekdays: Hashable, Sendable {
    var bits: Int

    static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    init(bits: Int) {
        self.bits = bits & 0x7F
    }

    /// Parses `["mon", "wed"]`; at least one day, no unknown names.
    init(names: [String]) throws {
        var bits = 0
        for name in names {
            guard let index = Self.names.firstIndex(of: name.lowercased()) else {
                throw HabitsError.invalidField("weekdays", "use mon, tue, wed, thu, fri, sat and sun.")
            }
            bits |= 1 << index
        }
        guard bits != 0 else { throw HabitsError.invalidField("weekdays", "choose at least one day.") }
        self.init(bits: bits)
    }

    var names: [String] { Self.names.indices.filter { bits & (1 << $0) != 0 }.map { Self.names[$0] } }

    func contains(_ day: LocalDay) -> Bool { bits & (1 << (day.isoWeekday - 1)) != 0 }
}
