import Synchronization

/// A service's URL, set once the stack has started it: a service that calls another may start first, and its
/// client (`SocialGraphClient`, identity's `NotificationsEndedSessionSink`) reads the URL on each call (until
/// then calls fail as unreachable).
final class LateServiceURL: Sendable {
    private let storage = Mutex("http://127.0.0.1:1")
    var url: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
