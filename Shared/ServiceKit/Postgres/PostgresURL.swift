import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL server and database as `DATABASE_URL` names them, in libpq's URL form:
/// `postgres://user:password@host:port/database?sslmode=require&sslrootcert=/path/ca.pem`.
///
/// `sslmode` is libpq's: `disable`, `prefer` (the default), `require` (encrypted, server unchecked), `verify-ca` and
/// `verify-full` (the server's certificate checked against `sslrootcert` or the system's roots; `verify-full` also
/// checks its name). A URL that is not of this form is refused with a message naming what is wrong.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode` values this client honours.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    /// `nil` for a URL naming only the server (the local stack gives each service its own database on it).
    public var database: String?
    public var tlsMode: TLSMode
    /// The certificate authorities that sign the server's certificate (`sslrootcert`), a PEM file.
    public var rootCertificatePath: String?
    /// The application name the server shows in `pg_stat_activity` (`application_name`).
    public var applicationName: String?
    /// How many connections one replica opens at most, over all its event loops (`pool_max_conns`, pgx's name).
    public var maximumConnections = 20

    /// Parses `string`; the error says what is wrong without repeating the password.
    public init(_ string: String) throws {
        guard let components = URLComponents(string: string),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else { throw ConfigurationError.invalid("DATABASE_URL must start with postgres:// (libpq's URL form)") }
        guard let host = components.host, !host.isEmpty else {
            throw ConfigurationError.invalid("DATABASE_URL names no host")
        }
        guard let username = components.user, !username.isEmpty else {
            throw ConfigurationError.invalid("DATABASE_URL names no user (postgres://user:password@host/database)")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw ConfigurationError.invalid("DATABASE_URL's port is not 1-65535")
        }
        self.host = host
        self.port = port
        self.username = username.removingPercentEncoding ?? username
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : (path.removingPercentEncoding ?? path)
        var tlsMode = TLSMode.prefer
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw ConfigurationError.invalid(
                        "DATABASE_URL's sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                tlsMode = mode
            case "sslrootcert": rootCertificatePath = value
            case "application_name": applicationName = value
            case "pool_max_conns":
                guard let count = Int(value), (1...1_000).contains(count) else {
                    throw ConfigurationError.invalid("DATABASE_URL's pool_max_conns must be a whole number 1-1000")
                }
                maximumConnections = count
            case "connect_timeout", "target_session_attrs": break  // libpq's own; HAProxy or the operator's service picks the primary
            default:
                throw ConfigurationError.invalid("DATABASE_URL has a parameter this client does not know: \(item.name)")
            }
        }
        self.tlsMode = tlsMode
    }

    /// This server with `database` instead.
    public func naming(database: String) -> PostgresURL {
        var url = self
        url.database = database
        return url
    }

    /// The URL without its password, for logs and errors.
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database ?? "")?sslmode=\(tlsMode.rawValue)"
    }

    /// The pool's configuration for this URL.
    func clientConfiguration() throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database,
            tls: try clientTLS())
        configuration.options.connectTimeout = .seconds(5)
        if let applicationName {
            configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        }
        return configuration
    }

    /// One connection's configuration for this URL (start-up's single attempt).
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration()))
            default: .require(try NIOSSLContext(configuration: tlsConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        if let applicationName {
            configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        }
        return configuration
    }

    private func clientTLS() throws -> PostgresClient.Configuration.TLS {
        switch tlsMode {
        case .disable: .disable
        case .prefer: .prefer(try tlsConfiguration())
        default: .require(try tlsConfiguration())
        }
    }

    private func tlsConfiguration() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let rootCertificatePath {
            guard FileManager.default.isReadableFile(atPath: rootCertificatePath) else {
                throw ConfigurationError.invalid("DATABASE_URL's sslrootcert cannot be read: \(rootCertificatePath)")
            }
            tls.trustRoots = .file(rootCertificatePath)
        }
        return tls
    }
}
