import ServiceKit
import Synchronization

/// Notices a service produced, in order.
final class RecordedNotices: NoticeSink {
    private let events = Mutex<[Notice]>([])
    var all: [Notice] { events.withLock { $0 } }
    var kinds: [String] { all.map(\.kind) }
    func publish(_ event: Notice) async { events.withLock { $0.append(event) } }
}
