import PlatformKit

/// A set of days as a bitmap from the earliest: membership is a shift and a mask, so statistics over
/// five years of events cost microseconds.
struct DaySet: Sendable, Equatable {
    private let first: Int
    private let words: [UInt64]
    /// How many days are in the set.
    let count: Int

    init(_ days: some Sequence<LocalDay>) {
        let numbers = days.map(\.number)
        guard let low = numbers.min(), let high = numbers.max() else {
            (first, words, count) = (0, [], 0)
            return
        }
        var words = [UInt64](repeating: 0, count: (high - low) / 64 + 1)
        var count = 0
        for number in numbers {
            let offset = number - low
            let mask = UInt64(1) << UInt64(offset % 64)
            if words[offset / 64] & mask == 0 { count += 1 }
            words[offset / 64] |= mask
        }
        (self.first, self.words, self.count) = (low, words, count)
    }

    func contains(_ day: LocalDay) -> Bool {
        let offset = day.number - first
        guard offset >= 0, offset / 64 < words.count else { return false }
        return words[offset / 64] & (UInt64(1) << UInt64(offset % 64)) != 0
    }

    /// The days, earliest first.
    var days: [LocalDay] {
        var result: [LocalDay] = []
        result.reserveCapacity(count)
        for (index, word) in words.enumerated() where word != 0 {
            for bit in 0..<64 where word & (UInt64(1) << UInt64(bit)) != 0 {
                result.append(LocalDay(number: first + index * 64 + bit))
            }
        }
        return result
    }
}
