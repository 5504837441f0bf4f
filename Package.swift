// swift-tools-version:6.2
import PackageDescription

// Every service is stamped out the same way: a library `<Name>Service` under `Services/<Name>/<Name>Service`
// holding all of its code, a thin executable `<Name>` beside it, and a test target `<Name>ServiceTests`.
let serviceNames = ["Identity", "Social", "Household", "Notifications", "Messaging", "Habits", "Geo"]

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdTesting = Target.Dependency.product(name: "HummingbirdTesting", package: "hummingbird")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let sqlite = Target.Dependency.product(name: "GRDBSQLite", package: "GRDB.swift")
let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let jwtKit = Target.Dependency.product(name: "JWTKit", package: "jwt-kit")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let prometheus = Target.Dependency.product(name: "Prometheus", package: "swift-prometheus")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let configuration = Target.Dependency.product(name: "Configuration", package: "swift-configuration")
let nio = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let nioExtras = Target.Dependency.product(name: "NIOExtras", package: "swift-nio-extras")
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let tracing = Target.Dependency.product(name: "Tracing", package: "swift-distributed-tracing")
let otel = Target.Dependency.product(name: "OTel", package: "swift-otel")
let postgres = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")

/// The library, executable and test target of one service.
func service(
    _ name: String, dependencies: [Target.Dependency] = [], testDependencies: [Target.Dependency] = [],
    resources: [Resource] = []
) -> [Target] {
    [
        .target(
            name: "\(name)Service",
            dependencies: ["PlatformKit", "ServiceKit", hummingbird, grdb, postgres, logging] + dependencies,
            path: "Services/\(name)/\(name)Service",
            resources: [.copy("OpenAPI/openapi.json")] + resources,
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: name,
            dependencies: [.target(name: "\(name)Service"), "ServiceKit"],
            path: "Services/\(name)/\(name)",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "\(name)ServiceTests",
            dependencies: [
                .target(name: "\(name)Service"), "TestSupport", "ServiceKit", "PlatformKit", hummingbirdTesting,
                configuration, crypto,
            ] + testDependencies,
            path: "Tests/\(name)ServiceTests",
            swiftSettings: swiftSettings
        ),
    ]
}

let package = Package(
    name: "platform",
    // iOS for the apps' client library (`PlatformClient`); the services themselves run on Linux and macOS.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: serviceNames.map { .executable(name: $0, targets: [$0]) } + [
        .executable(name: "Gateway", targets: ["Gateway"]),
        .library(name: "PlatformClient", targets: ["PlatformClient"]),
        .executable(name: "LocalStack", targets: ["LocalStack"]),
        .executable(name: "HouseholdBenchmark", targets: ["HouseholdBenchmark"]),
        .executable(name: "SocialBenchmark", targets: ["SocialBenchmark"]),
        .executable(name: "NotificationsBenchmark", targets: ["NotificationsBenchmark"]),
        .executable(name: "MessagingBenchmark", targets: ["MessagingBenchmark"]),
        .executable(name: "HabitsBenchmark", targets: ["HabitsBenchmark"]),
        .executable(name: "GeoBenchmark", targets: ["GeoBenchmark"]),
        .executable(name: "GazetteerBenchmark", targets: ["GazetteerBenchmark"]),
        .executable(name: "PacksBenchmark", targets: ["PacksBenchmark"]),
        .executable(name: "RateLimiterBenchmark", targets: ["RateLimiterBenchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // OTLP over HTTP only: the default traits would also build gRPC, which nothing here uses.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // The apps' client: generated code's runtime and its two transports.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
    ],
    targets: [
        // Code every executable shares that needs neither an HTTP framework nor a database.
        .target(
            name: "PlatformKit",
            dependencies: [jwtKit, crypto, logging, asyncHTTPClient, nio, nioPosix, nioHTTP1, tracing],
            path: "Shared/PlatformKit",
            swiftSettings: swiftSettings
        ),
        // The service chassis: application bootstrap, middleware, database setup, internal client.
        .target(
            name: "ServiceKit",
            dependencies: [
                "PlatformKit", hummingbird, grdb, sqlite, postgres, asyncHTTPClient, nio, nioPosix, logging,
                prometheus, serviceLifecycle, configuration, httpTypes, tracing, otel,
            ],
            path: "Shared/ServiceKit",
            swiftSettings: swiftSettings
        ),
        // The typed Swift client for the apps: `Generated/` is swift-openapi-generator's output for `openapi.json`
        // (the gateway's merged document; `Clients/generate` rewrites both), the rest is the session layer.
        .target(
            name: "PlatformClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"), httpTypes,
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
            ],
            path: "Clients/PlatformClient",
            exclude: ["openapi.json", "openapi-generator-config.yaml"],
            // Without ExistentialAny: the generated code is the generator's, not written to this package's rules.
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "GatewayService",
            dependencies: [
                "PlatformKit", nio, nioPosix, nioHTTP1, nioExtras, asyncHTTPClient, logging, prometheus,
                serviceLifecycle, configuration, tracing,
            ],
            path: "Gateway/GatewayService",
            exclude: ["Docs/LICENSE-swagger-ui"],
            resources: [.copy("Docs")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Gateway",
            dependencies: ["GatewayService", "ServiceKit", serviceLifecycle, logging],
            path: "Gateway/Gateway",
            swiftSettings: swiftSettings
        ),
        // Every service and the gateway in one process, each on its own loopback port.
        .target(
            name: "LocalStackKit",
            dependencies: ["GatewayService", "ServiceKit", "PlatformKit", serviceLifecycle, logging, configuration]
                + serviceNames.map { .target(name: "\($0)Service") },
            path: "Gateway/LocalStackKit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "LocalStack",
            dependencies: ["LocalStackKit", "ServiceKit"],
            path: "Gateway/LocalStack",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                "PlatformKit", hummingbird, jwtKit, crypto, asyncHTTPClient, nio, serviceLifecycle, logging,
            ],
            path: "Benchmarks/BenchmarkSupport",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "SocialBenchmark",
            dependencies: [
                "BenchmarkSupport", "SocialService", "PlatformKit", "ServiceKit", grdb, asyncHTTPClient, nio,
            ],
            path: "Benchmarks/SocialBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "HouseholdBenchmark",
            dependencies: ["BenchmarkSupport", "HouseholdService", "PlatformKit", "ServiceKit", grdb],
            path: "Benchmarks/HouseholdBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "NotificationsBenchmark",
            dependencies: [
                "BenchmarkSupport", "NotificationsService", "GatewayService", "PlatformKit", "ServiceKit",
                asyncHTTPClient, nio,
            ],
            path: "Benchmarks/NotificationsBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "MessagingBenchmark",
            dependencies: [
                "BenchmarkSupport", "MessagingService", "PlatformKit", "ServiceKit", "GatewayService", grdb,
                asyncHTTPClient, nio,
            ],
            path: "Benchmarks/MessagingBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "HabitsBenchmark",
            dependencies: ["BenchmarkSupport", "HabitsService", "PlatformKit", "ServiceKit", grdb],
            path: "Benchmarks/HabitsBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "GeoBenchmark",
            dependencies: ["BenchmarkSupport", "GeoService", "PlatformKit", "ServiceKit", grdb],
            path: "Benchmarks/GeoBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "GazetteerBenchmark",
            dependencies: ["BenchmarkSupport", "GeoService", "PlatformKit", "ServiceKit"],
            path: "Benchmarks/GazetteerBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PacksBenchmark",
            dependencies: ["BenchmarkSupport", "GeoService", "PlatformKit", "ServiceKit", grdb, asyncHTTPClient],
            path: "Benchmarks/PacksBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "RateLimiterBenchmark",
            dependencies: ["PlatformKit"],
            path: "Benchmarks/RateLimiterBenchmark",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "PlatformKit", "ServiceKit", "GatewayService", asyncHTTPClient, nio, nioPosix, nioSSL, nioExtras,
                jwtKit, crypto, hummingbird, hummingbirdTesting, serviceLifecycle, logging, configuration, httpTypes,
                grdb, postgres,
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
            ] + serviceNames.map { .target(name: "\($0)Service") },
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServiceKitTests",
            dependencies: [
                "ServiceKit", "PlatformKit", "TestSupport", hummingbirdTesting, hummingbird, jwtKit, crypto, httpTypes,
                configuration, grdb, postgres, serviceLifecycle, tracing, nio, nioPosix,
            ],
            path: "Tests/ServiceKitTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GatewayServiceTests",
            dependencies: ["GatewayService", "PlatformKit", configuration, nioHTTP1, tracing],
            path: "Tests/GatewayServiceTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StackTests",
            dependencies: [
                "TestSupport", "GatewayService", "PlatformKit", asyncHTTPClient, hummingbird, jwtKit, crypto,
                "ServiceKit", "LocalStackKit", grdb, serviceLifecycle, logging, nio, nioPosix, tracing, otel, httpTypes,
            ] + serviceNames.map { .target(name: "\($0)Service") },
            path: "Tests/StackTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlatformClientTests",
            dependencies: [
                "PlatformClient", "TestSupport", "PlatformKit", asyncHTTPClient,
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            path: "Tests/PlatformClientTests",
            swiftSettings: swiftSettings
        ),
    ]
        + serviceNames.flatMap {
            service(
                $0, dependencies: extraDependencies[$0] ?? [], testDependencies: extraTestDependencies[$0] ?? [],
                resources: extraResources[$0] ?? [])
        }
)

var extraDependencies: [String: [Target.Dependency]] {
    [
        "Identity": [
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"), jwtKit, crypto, asyncHTTPClient,
            nio, nioPosix, nioSSL, nioExtras, httpTypes,
        ],
        "Household": [crypto, configuration, httpTypes, serviceLifecycle],
        "Social": [configuration],
        "Notifications": [jwtKit, asyncHTTPClient, nio, nioHTTP1, configuration, serviceLifecycle, httpTypes],
        "Messaging": [configuration, httpTypes],
        "Habits": [configuration, asyncHTTPClient, httpTypes],
        "Geo": [crypto, configuration, httpTypes],
    ]
}

/// Resources a service ships besides its OpenAPI document (paths relative to its library's folder).
var extraResources: [String: [Resource]] {
    ["Geo": [.copy("Gazetteer")]]
}

var extraTestDependencies: [String: [Target.Dependency]] {
    ["Notifications": [asyncHTTPClient, nioSSL, jwtKit, nio], "Geo": [grdb, postgres]]
}
