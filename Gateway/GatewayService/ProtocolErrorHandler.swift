import NIOCore
import NIOHTTP1
import PlatformKit

/// Answers a request the HTTP parser refuses (obs-fold, bare LF, two `Content-Length`s, `Content-Length`
/// with `Transfer-Encoding`, ...) with a 400 problem body, then lets the decoder close the connection.
///
/// NIO's `HTTPServerProtocolErrorHandler` does the same with an empty body; every answer of the platform is
/// an RFC 9457 problem, so this one says what is wrong in a `code` a client can act on.
final class ProtocolErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var responseInProgress = false
    /// Requests and responses ended so far. More requests than responses: an error now is in a pipelined request
    /// behind one still being answered, and a 400 would reach the client as that earlier request's answer.
    private var requestsEnded = 0
    private var responsesEnded = 0

    static let problem = Problem.badRequest(
        "malformed_request",
        "The request is not valid HTTP/1.1 (for example a folded header line, a line ending without CR, or "
            + "conflicting Content-Length and Transfer-Encoding headers).")

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        // The decoder closes the channel right after this returns: write now, or not at all.
        if !responseInProgress && requestsEnded <= responsesEnded {
            let body = ByteBuffer(bytes: Self.problem.jsonData)
            let headers = HTTPHeaders([
                ("content-type", Problem.mediaType), ("content-length", String(body.readableBytes)),
                ("connection", "close"),
            ])
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.fireErrorCaught(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { requestsEnded &+= 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responseInProgress = true
        case .end:
            responseInProgress = false
            responsesEnded &+= 1
        default: break
        }
        context.write(data, promise: promise)
    }
}
