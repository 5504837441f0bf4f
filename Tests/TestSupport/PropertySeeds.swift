import Foundation
import PlatformKit

/// The seed of a property test, as its argument (`@Test(arguments: propertySeeds())`), so that the test's name in
/// a failure report carries it: `TEST_SEED=<seed> swift test --filter <test>` draws the same cases again. Without
/// `TEST_SEED`, each run draws new ones.
public func propertySeeds() -> [UInt64] {
    if let given = ProcessInfo.processInfo.environment["TEST_SEED"], let seed = UInt64(given) { return [seed] }
    return [UInt64.random(in: .min ... .max)]
}
