import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit

/// The answers the gateway gives itself: refusals, failures, and its own endpoints.
extension GatewayHandler {
    func refuse(
        _ head: HTTPRequestHead, _ problem: Problem, _ requestID: String, _ start: NIODeadline,
        closeConnection: Bool = false
    ) {
        // In `answering` since the head: the body parts that follow are dropped.
        respond(problem, requestID: requestID, version: head.version, keepAlive: head.isKeepAlive && !closeConnection)
        core.metrics.record(target: "gateway", status: problem.statusCode, since: start)
    }

    /// Ends the current exchange with a problem, if no response byte has gone out yet.
    func failExchange(_ problem: Problem) {
        guard let exchange = takeExchange() else { return }
        exchange.connection?.abandon()
        guard !exchange.responseStarted else {
            // Half an answer went out: only closing tells the client it is cut.
            exchange.endSpan(status: exchange.responseStatus, error: problem.code)
            state = .closing
            context.close(promise: nil)
            return
        }
        exchange.endSpan(status: problem.statusCode, error: problem.statusCode >= 500 ? problem.code : nil)
        respond(problem, requestID: exchange.requestID, version: exchange.version, keepAlive: exchange.keepAlive)
        core.metrics.record(target: exchange.service.rawValue, status: problem.statusCode, since: exchange.startedAt)
    }

    /// Answers a request the HTTP parser refuses (obs-fold, bare LF, two `Content-Length`s, `Content-Length`
    /// with `Transfer-Encoding`, ...) with a 400 problem; the connection closes after it. NIO's
    /// `HTTPServerProtocolErrorHandler` does the same with an empty body (and as one more handler every request
    /// passes through). Nothing is written when an earlier request's response is still due: the 400 would reach
    /// the client as that request's answer.
    func answerMalformedRequest() {
        guard held.isEmpty, !awaitingResponse, exchange?.responseStarted != true else { return }
        if let exchange = takeExchange() {
            exchange.connection?.abandon()
            exchange.endSpan(status: 400, error: "malformed_request")
        }
        requestMethod = .GET
        respond(Self.malformedRequest, requestID: RequestIDs.next(), version: .http1_1, keepAlive: false)
        core.metrics.record(target: "gateway", status: 400, since: .now())
    }

    static let malformedRequest = Problem.badRequest(
        "malformed_request",
        "The request is not valid HTTP/1.1 (for example a folded header line, a line ending without CR, or "
            + "conflicting Content-Length and Transfer-Encoding headers).")

    /// The answer for a path nothing serves (also for `/metrics` without the scrape credential).
    static func noRoute(_ head: HTTPRequestHead) -> Problem {
        Problem(
            status: 404, code: "no_route", title: "Not found",
            detail: "No route for \(head.method) \(path(of: head.uri)).")
    }

    func abortOversizedBody() {
        failExchange(Problem.payloadTooLarge(limit: core.configuration.maximumBodyBytes))
        // The rest of the body would still arrive; closing is cheaper than reading it.
        state = .closing
        context.close(promise: nil)
    }

    func respond(_ problem: Problem, requestID: String, version: HTTPVersion, keepAlive: Bool) {
        var headers = HTTPHeaders([("content-type", Problem.mediaType), ("x-request-id", requestID)])
        if let retryAfter = problem.retryAfter { headers.add(name: "retry-after", value: String(retryAfter)) }
        respond(
            status: .init(statusCode: problem.statusCode), headers: headers, body: ByteBuffer(bytes: problem.jsonData),
            version: version, keepAlive: keepAlive)
    }

    func respond(
        status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer, version: HTTPVersion, keepAlive: Bool
    ) {
        var headers = headers
        headers.add(name: "content-length", value: String(body.readableBytes))
        if !keepAlive { headers.add(name: "connection", value: "close") }
        writeToClient(WireFormat.responseHead(status, version: version, headers: headers))
        // A response to HEAD says how long the body would be, and sends none.
        if requestMethod != .HEAD { writeToClient(body) }
        finishResponse(keepAlive: keepAlive)
    }

    /// Writes to the client; the bytes go out at the next ``flushClient()``.
    func writeToClient(_ bytes: ByteBuffer) {
        context.write(wrapOutboundOut(bytes), promise: nil)
        flow.needsFlush = true
    }

    /// Flushes what was written to the client, if anything: a flush with nothing to send still walks the
    /// pipeline and the socket's state.
    func flushClient() {
        guard flow.needsFlush else { return }
        flow.needsFlush = false
        context.flush()
    }

    /// Sends the response's last bytes; then handles the pipelined requests held meanwhile, or closes the connection.
    /// The gateway's answer is done: waiting for the next request, or discarding the rest of this one's body, or
    /// closing.
    func finishResponse(keepAlive: Bool) {
        if keepAlive && !quiescing {
            state = requestEnded ? .waitingForRequest(idle: true) : .discarding
            flushClient()
            handleHeld()
            if !awaitingResponse {
                // Waiting on the client again: for its next request (idle until its first byte), or the rest of a body.
                awaitClient(for: core.configuration.idleTimeout)
            }
        } else {
            state = .closing
            held.removeAll()
            let channel = context.channel
            flow.needsFlush = false
            context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func answerLocally(
        _ endpoint: GatewayRouter.LocalEndpoint, head: HTTPRequestHead, requestID: String, start: NIODeadline
    ) {
        if endpoint == .metrics
            && !MetricsCredential.allows(
                authorization: head.headers.first(name: "authorization"), token: core.configuration.metricsToken)
        {
            // Answered as for any unknown path, so the endpoint's existence is not revealed.
            return refuse(head, Self.noRoute(head), requestID, start)
        }
        var association = Data()
        var docsAsset: DocsPage.Asset?
        if endpoint == .docs {
            guard let asset = DocsPage.asset(at: head.uri) else {
                return refuse(head, Self.noRoute(head), requestID, start)
            }
            docsAsset = asset
        }
        if endpoint == .appleAppSiteAssociation || endpoint == .assetLinks {
            let appLinks = core.configuration.appLinks
            let document = endpoint == .assetLinks ? appLinks.androidDocument : appLinks.appleDocument
            // No app configured: answered as for any unknown path.
            guard let document else { return refuse(head, Self.noRoute(head), requestID, start) }
            association = document
        }
        let json = HTTPHeaders([("content-type", "application/json"), ("x-request-id", requestID)])
        switch endpoint {
        case .live:
            respond(
                status: .ok, headers: json, body: ByteBuffer(string: #"{"status":"ok"}"#), version: head.version,
                keepAlive: head.isKeepAlive)
        case .ready:
            respond(
                status: .ok, headers: json, body: ByteBuffer(string: #"{"status":"ready"}"#), version: head.version,
                keepAlive: head.isKeepAlive)
        case .metrics:
            let headers = HTTPHeaders([("content-type", "text/plain; version=0.0.4"), ("x-request-id", requestID)])
            respond(
                status: .ok, headers: headers, body: core.metrics.exposition(), version: head.version,
                keepAlive: head.isKeepAlive)
        case .appleAppSiteAssociation, .assetLinks:
            // Both files are JSON served as `application/json` (Apple requires it, without a redirect); clients cache
            // them, so a short max-age lets a new app id take effect within the hour.
            let headers = HTTPHeaders([
                ("content-type", "application/json"), ("cache-control", "public, max-age=3600"),
                ("x-request-id", requestID),
            ])
            respond(
                status: .ok, headers: headers, body: ByteBuffer(bytes: association), version: head.version,
                keepAlive: head.isKeepAlive)
        case .docs:
            guard let asset = docsAsset else { return }
            var headers = HTTPHeaders([
                ("content-type", asset.contentType), ("cache-control", asset.cacheControl),
                ("x-content-type-options", "nosniff"), ("referrer-policy", "no-referrer"), ("x-request-id", requestID),
            ])
            if asset.contentType.hasPrefix("text/html") {
                headers.add(name: "content-security-policy", value: DocsPage.contentSecurityPolicy)
            }
            respond(status: .ok, headers: headers, body: asset.body, version: head.version, keepAlive: head.isKeepAlive)
        case .openAPI:
            let merger = core.openAPI
            let promise = context.eventLoop.makePromise(of: Data.self)
            promise.completeWithTask { await merger.document() }
            let this = NIOLoopBound(self, eventLoop: context.eventLoop)
            promise.futureResult.whenSuccess { document in
                guard this.value.context.channel.isActive else { return }
                this.value.respond(
                    status: .ok, headers: json, body: ByteBuffer(bytes: document), version: head.version,
                    keepAlive: head.isKeepAlive)
            }
        }
        core.metrics.record(target: "gateway", status: 200, since: start)
    }
}
