import Foundation
import PlatformKit

/// The share of the hostile walk a run sends: for every operation its valid request, and for every field it
/// probes the values most likely to break a route (``HostileValues/alwaysSent``) and a few others drawn from the
/// seed, about a tenth of the walk in all. The draw is per field, so no run leaves an operation or a field out;
/// `HOSTILE_WALK=full` sends every probe.
enum HostileSample {
    /// Whether this run sends the whole walk.
    static var isFull: Bool { ProcessInfo.processInfo.environment["HOSTILE_WALK"] == "full" }

    /// The probes `seed` picks from `probes`, in their order.
    static func probes(_ probes: [HostileProbe], seed: UInt64) -> [HostileProbe] {
        var generator = SplitMix64(seed: seed)
        var fields: [String: [Int]] = [:]
        var order: [String] = []
        for (index, probe) in probes.enumerated() {
            let key = "\(probe.method) \(probe.template) \(probe.field)"
            if fields[key] == nil { order.append(key) }
            fields[key, default: []].append(index)
        }
        var kept: Set<Int> = []
        for key in order {
            let indices = fields[key] ?? []
            let always = indices.filter { HostileValues.alwaysSent.contains(probes[$0].value) }
            let others = indices.filter { !HostileValues.alwaysSent.contains(probes[$0].value) }
            let drawn = max(1, (indices.count + 9) / 10 - always.count)
            kept.formUnion(always)
            kept.formUnion(others.shuffled(using: &generator).prefix(drawn))
        }
        return probes.indices.filter(kept.contains).map { probes[$0] }
    }
}
