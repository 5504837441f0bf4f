/// Asks `holds` until it is true, for what a service learns a moment after another answered (a change feed, a
/// revocation); false when `limit` passes first. The limit only ends a failing test: a passing check returns at once,
/// and the whole suite shares two cores.
public func eventually(within limit: Duration = .seconds(30), _ holds: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    repeat {
        if try await holds() { return true }
        try await Task.sleep(for: .milliseconds(10))
    } while ContinuousClock.now < deadline
    return false
}
