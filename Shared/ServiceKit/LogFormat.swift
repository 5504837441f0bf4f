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
        guard
            bootstrapped.withLock({ done in
                defer { done = true }; return !done
            })
        else { return }
        LoggingSystem.bootstrap(
            { label, provider in PlatformLogHandler(label: label, format: format, metadataProvider: provider) },
            metadataProvider: Observability.logMetadataProvider)
    }

    private static let bootstrapped = Mutex(false)
}

/// The platform's swift-log handler: one line per record on standard error, in the process's ``LogFormat``.
///
/// `plain` is swift-log's own one-line text (`StreamLogHandler`'s: `timestamp level label: key=value ... [source]
/// message`); `json` is one JSON object per line: `timestamp` (RFC 3339 UTC), `level`, `label`, `message`,
/// `source`, and the metadata (`request_id`, `user_id`, ...) as fields of their own. Either way the metadata is
/// formatted only when a line is written: `StreamLogHandler` formats it again whenever a key is set, and every
/// request sets two on a logger that mostly writes nothing (1.5% of a service's CPU under load).
public struct PlatformLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String
    private let format: LogFormat
    private let write: @Sendable (String) -> Void

    /// A handler for `label` writing `format` lines with `write` (standard error by default).
    public init(
        label: String, format: LogFormat,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.format = format
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        switch format {
        case .plain: write(plainLine(event, merged))
        case .json: jsonLine(event, merged).map(write)
        }
    }

    private func plainLine(_ event: LogEvent, _ metadata: Logger.Metadata) -> String {
        var metadata = metadata
        if let error = event.error {
            metadata["error.message"] = "\(error)"
            metadata["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let fields = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let separator = label.isEmpty ? "" : " "
        return
            "\(Self.localTimestamp()) \(event.level)\(separator)\(label):\(fields) [\(event.source)] \(event.message)\n"
    }

    private func jsonLine(_ event: LogEvent, _ metadata: Logger.Metadata) -> String? {
        var fields: [String: Any] = [:]
        for (key, value) in metadata { fields[key] = Self.json(value) }
        fields["timestamp"] = Date().formatted(.iso8601)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        fields["source"] = event.source
        if let error = event.error { fields["error"] = String(describing: error) }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    /// Local time to the second with its offset, as `StreamLogHandler` writes it.
    private static func localTimestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
