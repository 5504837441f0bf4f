import Foundation
import Logging
import ServiceKit
import Synchronization
import Testing

@Suite struct LogFormatTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func jsonLinesCarryLevelMessageAndMetadataAsFields() throws {
        // given a logger writing through the JSON handler, with the request id in its metadata
        let lines = Lines()
        var logger = Logger(label: "platform.test") {
            PlatformLogHandler(label: $0, format: .json, metadataProvider: nil, write: lines.append)
        }
        logger[metadataKey: "request_id"] = "req-123"
        // when it logs a line with a message containing quotes and a newline, and metadata of its own
        logger.warning("a \"quoted\"\nline", metadata: ["user_id": "u1", "attempts": .stringConvertible(3)])
        // then one line of JSON holds each as a field
        let written = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        #expect(written.hasSuffix("\n") && written.dropLast().contains("\n") == false)
        let object = try #require(JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "platform.test")
        #expect(object["message"] as? String == "a \"quoted\"\nline")
        #expect(object["request_id"] as? String == "req-123")
        #expect(object["user_id"] as? String == "u1")
        #expect(object["attempts"] as? String == "3")
        #expect((object["timestamp"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func plainLinesHaveStreamLogHandlersFormatWithTheMetadataSetOnTheLogger() throws {
        let lines = Lines()
        var logger = Logger(label: "platform.test") {
            PlatformLogHandler(label: $0, format: .plain, metadataProvider: nil, write: lines.append)
        }
        logger[metadataKey: "user_id"] = "u1"
        logger[metadataKey: "request_id"] = "r1"
        logger.info("signed in", metadata: ["route": "/v1/users/me"])
        logger.debug("not written")
        let written = lines.all
        #expect(written.count == 1)
        let line = try #require(written.first)
        let pattern = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4} info platform\.test: (.*)\n$/#
        let rest = try #require(line.wholeMatch(of: pattern)).1
        #expect(rest == "request_id=r1 route=/v1/users/me user_id=u1 [ServiceKitTests] signed in")
    }

    @Test func belowTheLevelNothingIsWritten() {
        let lines = Lines()
        let logger = Logger(label: "platform.test") {
            PlatformLogHandler(label: $0, format: .json, metadataProvider: nil, write: lines.append)
        }
        logger.debug("hidden")
        #expect(lines.all.isEmpty)
    }

    @Test func anUnknownFormatIsRefusedNamingTheVariable() {
        let error = #expect(throws: ConfigurationError.self) {
            try LogFormat.bootstrap(environment: ["LOG_FORMAT": "xml"])
        }
        #expect(error.map(String.init(describing:))?.contains("LOG_FORMAT") == true)
        #expect(throws: Never.self) { try LogFormat.bootstrap(environment: ["LOG_FORMAT": "plain"]) }
    }
}
