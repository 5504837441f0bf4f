import Configuration
import PlatformKit

/// Where another service answers (its base URL, `http://host:port`), read on every call: the local stack and the
/// tests learn a service's port only after the configurations that name it were built, so an address may be bound
/// late (``late(_:)``). Every configuration names the services it calls with this one type.
public struct ServiceAddress: Sendable, ExpressibleByStringLiteral {
    private let read: @Sendable () -> String

    /// A fixed address.
    public init(_ url: String) {
        read = { url }
    }

    /// A fixed address written as a literal.
    public init(stringLiteral url: String) {
        self.init(url)
    }

    private init(reading read: @escaping @Sendable () -> String) {
        self.read = read
    }

    /// An address read on each call, for a service started after the one that calls it.
    public static func late(_ read: @escaping @Sendable () -> String) -> ServiceAddress {
        ServiceAddress(reading: read)
    }

    /// `service` on this machine at its default port (the local defaults).
    public static func local(_ service: ServiceName) -> ServiceAddress {
        ServiceAddress("http://127.0.0.1:\(service.defaultPort)")
    }

    /// The base URL now.
    public var url: String { read() }
}

extension ConfigReader {
    /// `service`'s address from `<SERVICE>_URL` (e.g. `SOCIAL_URL`), or its local default.
    public func address(of service: ServiceName) -> ServiceAddress {
        optionalAddress(of: service) ?? .local(service)
    }

    /// `service`'s address from `<SERVICE>_URL`; `nil` when unset, for a service the caller can do without.
    public func optionalAddress(of service: ServiceName) -> ServiceAddress? {
        string(forKey: ConfigKey("\(service.rawValue).url")).map { ServiceAddress($0) }
    }
}
