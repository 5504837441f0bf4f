import PlatformKit
import ServiceKit
import Synchronization

/// A service's URL, set once the stack has started it: a service that calls another may start first, and its
/// client (`SocialGraphClient`, identity's `NotificationsEndedSessionSink`) reads the URL on each call (until
/// then calls fail as unreachable).
public final class LateServiceURL: Sendable {
    private let storage = Mutex("http://127.0.0.1:1")

    public init() {}
    public var url: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Hands notices on to a sink chosen once the stack runs (the notifications service's port is known only then).
public final class LateNoticeSink: NoticeSink {
    private let target = Mutex<(any NoticeSink)?>(nil)

    public init() {}

    public func connect(to sink: any NoticeSink) { target.withLock { $0 = sink } }
    public func publish(_ notice: Notice) async { await target.withLock { $0 }?.publish(notice) }
    public func publish(_ event: RealtimeEvent) async { await target.withLock { $0 }?.publish(event) }
}
