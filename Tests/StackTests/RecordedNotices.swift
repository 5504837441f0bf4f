import ServiceKit
import Synchronization

/// Notices a service produced, in order, and the realtime events it published.
final class RecordedNotices: NoticeSink {
    private let events = Mutex<[Notice]>([])
    private let realtime = Mutex<[RealtimeEvent]>([])
    var all: [Notice] { events.withLock { $0 } }
    var kinds: [String] { all.map(\.kind) }
    /// The realtime events, in order.
    var live: [RealtimeEvent] { realtime.withLock { $0 } }
    func publish(_ event: Notice) async { events.withLock { $0.append(event) } }
    func publish(_ event: RealtimeEvent) async { realtime.withLock { $0.append(event) } }
}
