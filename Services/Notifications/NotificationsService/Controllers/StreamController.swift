import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The live stream: Server-Sent Events of my new notices and the realtime events other services publish for
/// me, resumable with `Last-Event-ID`.
///
/// A stream lives no longer than what opened it: it ends, after an `event: reauthenticate`, when its session ends
/// (the hub ends it as the verifier learns of the revocation) and when its access token expires (a timer). Before
/// each event it checks both again, so nothing is written to a session the verifier already knows has ended.
struct StreamController {
    let store: any NotificationsStore
    let hub: EventHub
    let verifier: AccessTokenVerifier
    let clock: WallClock
    let heartbeatInterval: Duration
    /// A reconnecting client is sent at most this many missed events, then told to resync.
    static let replayLimit = 5_000
    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!
    /// Tells nginx-style proxies in front of the platform not to buffer the stream.
    static let noProxyBuffering = HTTPField.Name("X-Accel-Buffering")!

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(NotificationsPaths.stream), use: stream)
    }

    @Sendable func stream(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let user = context.user.userID
        let session = context.user.sessionID
        let expiresAt = context.user.expiresAt
        // Browsers' EventSource cannot set headers on the first connection, hence the query parameter too.
        let given =
            request.headers[Self.lastEventIDHeader]
            ?? request.uri.queryParameters["lastEventId"].map(String.init)
        guard let lastEventID = ServerSentEvents.lastEventID(given) else {
            throw Problem.badRequest("invalid_last_event_id", "Last-Event-ID must be an id this stream sent.")
        }
        // Subscribe before reading what was missed: an event committed in between is then in both, and the
        // live copy is skipped by its sequence number.
        let subscription = hub.subscribe(user, session: session, resumedAfter: lastEventID)
        // A revocation learnt between the token's check and the subscription found no connection to end.
        if verifier.sessionEnded(session) { hub.endSessions([session]) }
        var missed: [StreamEvent] = []
        var resync = false
        if let lastEventID {
            do {
                let (events, gap) = try await store.events(
                    for: user, after: lastEventID, limit: Self.replayLimit + 1)
                missed = Array(events.prefix(Self.replayLimit))
                resync = gap || events.count > Self.replayLimit
            } catch {
                subscription.continuation.finish()
                throw error
            }
        }
        let heartbeatInterval = self.heartbeatInterval
        let replayed = missed
        let tellResync = resync
        let (verifier, clock) = (self.verifier, self.clock)
        // Bounded before the conversion to a duration: a token's expiry is 15 minutes away, never years.
        let untilExpiry = min(max(expiresAt.timeIntervalSince(clock.now), 0), 86_400)
        let ending: @Sendable () -> StreamEnd? = {
            if verifier.sessionEnded(session) { return .sessionEnded }
            return clock.now >= expiresAt ? .tokenExpired : nil
        }

        let body = ResponseBody { writer in
            defer { subscription.continuation.finish() }
            var buffer = ByteBuffer()
            ServerSentEvents.opening(into: &buffer)
            if tellResync {
                ServerSentEvents.resync(into: &buffer)
            } else {
                for event in replayed { ServerSentEvents.encode(event, into: &buffer) }
            }
            try await writer.write(buffer)
            var lastSent = replayed.last?.seq ?? lastEventID ?? 0
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while true {
                            try await Task.sleep(for: heartbeatInterval)
                            subscription.continuation.yield(.heartbeat)
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(Int64(untilExpiry * 1_000)))
                        subscription.continuation.yield(.ended(.tokenExpired))
                        subscription.continuation.finish()
                    }
                    items: for await item in subscription.items {
                        buffer.clear()
                        switch item {
                        case .heartbeat:
                            ServerSentEvents.heartbeat(into: &buffer)
                        case .event(let event):
                            // Already sent in the replay; after a resync, everything live is new.
                            guard tellResync || event.seq > lastSent else { continue }
                            if let end = ending() {
                                ServerSentEvents.reauthenticate(end, into: &buffer)
                                try await writer.write(buffer)
                                break items
                            }
                            lastSent = event.seq
                            ServerSentEvents.encode(event, into: &buffer)
                        case .ended(let end):
                            ServerSentEvents.reauthenticate(end, into: &buffer)
                            try await writer.write(buffer)
                            break items
                        }
                        try await writer.write(buffer)
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                subscription.continuation.finish()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream", .cacheControl: "no-cache", Self.noProxyBuffering: "no",
            ],
            body: body)
    }
}
