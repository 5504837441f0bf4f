import AsyncHTTPClient
import Foundation
import NIOCore
import PlatformKit
import Synchronization

/// Serves one OpenAPI document for the whole API: every service's `paths` and `components`, merged.
/// Fetched from the services on demand and kept for a minute; a service that is down (or slow) is left out of that
/// answer, which is then not kept, so the next request asks again.
public final class OpenAPIMerger: Sendable {
    private let upstreams: [ServiceName: GatewayConfiguration.Upstream]
    private let httpClient: HTTPClient
    private let clock: WallClock
    private let cached = Mutex<(document: Data, at: Date)?>(nil)
    static let lifetime: TimeInterval = 60

    init(upstreams: [ServiceName: GatewayConfiguration.Upstream], httpClient: HTTPClient, clock: WallClock) {
        self.upstreams = upstreams
        self.httpClient = httpClient
        self.clock = clock
    }

    func document() async -> Data {
        if let cached = cached.withLock({ $0 }), clock.now.timeIntervalSince(cached.at) < Self.lifetime {
            return cached.document
        }
        let documents = await withTaskGroup(of: (String, Data?).self) { group in
            for (service, upstream) in upstreams {
                group.addTask {
                    // Replicas serve the same document: the first that answers.
                    for address in upstream.addresses {
                        if let document = await self.fetch(address.url + "/openapi.json") {
                            return (service.rawValue, document)
                        }
                    }
                    return (service.rawValue, nil)
                }
            }
            var documents: [String: Data?] = [:]
            for await (service, document) in group { documents[service] = document }
            return documents
        }
        let merged = Self.merge(
            documents.sorted { $0.key < $1.key }.compactMap { entry in
                entry.value.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
            })
        let data = (try? JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys])) ?? Data("{}".utf8)
        if documents.values.allSatisfy({ $0 != nil }) { cached.withLock { $0 = (data, clock.now) } }
        return data
    }

    private func fetch(_ url: String) async -> Data? {
        do {
            let response = try await httpClient.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            guard response.status == .ok else { return nil }
            return Data(try await response.body.collect(upTo: 4 << 20).readableBytesView)
        } catch {
            return nil
        }
    }

    /// Unions `paths`, `components.*` and `tags` of the documents under one `info`, with the gateway's own probes.
    public static func merge(_ documents: [[String: Any]]) -> [String: Any] {
        var paths: [String: Any] = [:]
        var components: [String: [String: Any]] = [:]
        var tags: [[String: Any]] = []
        for document in documents {
            for (path, item) in document["paths"] as? [String: Any] ?? [:] { paths[path] = item }
            for (kind, entries) in document["components"] as? [String: Any] ?? [:] {
                for (name, value) in entries as? [String: Any] ?? [:] { components[kind, default: [:]][name] = value }
            }
            tags += document["tags"] as? [[String: Any]] ?? []
        }
        // The gateway's own probes, open to anyone (the reference page's first "try it out").
        for (path, id, summary, status) in [
            ("/health/live", "gatewayLive", "The gateway runs.", "ok"),
            ("/health/ready", "gatewayReady", "The gateway is ready to forward requests.", "ready"),
        ] {
            paths[path] = [
                "get": [
                    "operationId": id, "summary": summary, "tags": ["platform"], "security": [[String: Any]](),
                    "responses": [
                        "200": [
                            "description": summary,
                            "content": [
                                "application/json": [
                                    "schema": [
                                        "type": "object",
                                        "properties": ["status": ["type": "string", "enum": [status]]],
                                        "required": ["status"],
                                    ],
                                    "example": ["status": status],
                                ]
                            ],
                        ]
                    ],
                ] as [String: Any]
            ]
        }
        tags.append(["name": "platform", "description": "The gateway itself: health probes."])
        return [
            "openapi": "3.1.0",
            "info": ["title": "Platform API", "version": "1.0.0", "description": "Every service behind the gateway."],
            "servers": [["url": "/"]],
            "paths": paths,
            "components": components,
            "tags": tags,
        ]
    }
}
