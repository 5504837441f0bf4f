import Foundation
import OpenAPIRuntime

/// One event of the signed-in user's live stream (`GET /v1/notifications/stream`): a message, a household change,
/// a notification. `data` is the event's JSON as sent.
public struct LiveEvent: Sendable, Hashable {
    /// Resume after this event with ``PlatformClient/liveEvents(after:)``.
    public var id: String?
    /// The event's kind, e.g. `message.created`; `resync` means events were missed beyond what the server keeps, and
    /// the app should reload what it shows.
    public var name: String?
    public var data: String
}

extension PlatformClient {
    /// The live stream as an async sequence. A dropped connection is opened again with `Last-Event-ID`, so no event
    /// is lost while the server still holds it; pass the last id an app saw to resume after a relaunch. The
    /// sequence ends when the task that reads it is cancelled, and throws when the session can no longer sign it.
    public func liveEvents(after lastEventID: String? = nil, reconnectDelay: Duration = .seconds(1))
        -> AsyncThrowingStream<LiveEvent, any Error>
    {
        let api = self.api
        return AsyncThrowingStream { continuation in
            let reader = Task {
                var last = lastEventID
                while !Task.isCancelled {
                    do {
                        let output = try await api.stream(headers: .init(lastEventID: last))
                        guard case .ok(let ok) = output else {
                            continuation.finish(throwing: PlatformClientError.unexpected("\(output)"))
                            return
                        }
                        for try await event in try ok.body.textEventStream.asDecodedServerSentEvents() {
                            if let id = event.id { last = id }
                            // Comment-only heartbeats carry no data; they only keep the connection open.
                            guard let data = event.data else { continue }
                            continuation.yield(LiveEvent(id: event.id, name: event.event, data: data))
                        }
                    } catch  where Task.isCancelled {
                        break
                    } catch {
                        // The connection dropped: open it again after a pause, from the last event seen.
                    }
                    try? await Task.sleep(for: reconnectDelay)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }
}
