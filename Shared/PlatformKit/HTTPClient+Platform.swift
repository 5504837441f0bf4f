import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// The client for calls between platform components and to identity providers.
    ///
    /// AsyncHTTPClient's defaults retry a refused connection until the request's deadline (a stopped
    /// service took 5 s to report) and allow 8 connections per host; here a refused connection fails at
    /// once and 64 connections per host may be open.
    public static let platform: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        configuration.timeout.connect = .seconds(1)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
