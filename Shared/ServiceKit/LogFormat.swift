import Foundation
import Logging
import Synchronization

/// How every process of the platform writes its log lines, from `LOG_FORMAT`: `plain` (swift-log's
/// one-line text, the default) or `json` (one JSON object per line, for log collectors).
public enum LogFormat: String, Sendable {
    case plain, json

    /// Reads `LOG_FORMAT` and bootstraps swift-log for the process, with trace ids on lines inside a request
    /// (``Observability/logMetadataProvider``); ``Observability/bootstrap(service:environment:)`` calls it.
    /// swift-log can be bootstrapped once per process: later calls (tests, the local stack) only check the value.
    public static func bootstrap(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let value = environment["LOG_FORMAT"].map { $0.lowercased() } ?? "plain"
        guard let format = LogFormat(rawValue: value) else {
            throw ConfigurationError.invalid("LOG_FORMAT must be plain or json")
        }
        guard bootstrapped.withLock({ done in defer { done = true }; return !done }) else { return }
        switch format {
        case .json:
            LoggingSystem.bootstrap(
                { label, provider in JSONLogHandler(label: label, metadataProvider: provider) },
                metadataProvider: Observability.logMetadataProvider)
        case .plain:
            // swift-log's own default handler, as before, now with the trace ids.
            LoggingSystem.bootstrap(
                { label, provider in StreamLogHandler.standardError(label: label, metadataProvider: provider) },
                metadataProvider: Observability.logMetadataProvider)
        }
    }

    private static let bootstrapped = Mutex(false)
}

/// A swift-log handler writing each record as one JSON object per line on standard error: `timestamp`
/// (RFC 3339 UTC), `level`, `label`, `message`, `source`, and the metadata (`request_id`, `user_id`, ...)
/// as fields of their own.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler for `label` writing lines with `write` (standard error by default).
    public init(
        label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged { fields[key] = Self.json(value) }
        fields["timestamp"] = Date().formatted(.iso8601)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        fields["source"] = event.source
        if let error = event.error { fields["error"] = String(describing: error) }
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }
}
