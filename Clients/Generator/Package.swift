// swift-tools-version:6.2
import PackageDescription

// Pins the code generator that writes `Clients/PlatformClient/Generated` from the gateway's merged OpenAPI document.
// A package of its own so that building the platform never builds the generator; `Clients/generate` runs it.
let package = Package(
    name: "client-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
