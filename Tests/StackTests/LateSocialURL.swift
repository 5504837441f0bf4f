import Synchronization

/// The social service's URL, set once the stack has started it: services start before social in a test stack,
/// and their `SocialGraphClient` reads the URL on each call (until then calls fail as unreachable, a 503).
final class LateSocialURL: Sendable {
    private let storage = Mutex("http://127.0.0.1:1")
    var url: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
