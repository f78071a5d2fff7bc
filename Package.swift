// swift-tools-version:6.0
import PackageDescription

/// Compiler settings shared by every Swift target: Swift 6 language mode is the
/// tools-version default; `InternalImportsByDefault` keeps C types inside their wrappers.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

/// Linux has no AuthenticationServices: there the glue is left out of `PasskeyClient` and compiled
/// on its own against the test-only stand-in module (docs/ios.md).
#if os(Linux)
    let glueExclude = ["Apple"]
    let glueTestDependencies: [Target.Dependency] = ["PasskeyClientGlue", "AuthenticationServices", "Security"]
#else
    let glueExclude: [String] = []
    let glueTestDependencies: [Target.Dependency] = []
#endif

/// What an app builds, on every platform: the contract's bodies, the client and its unit tests
/// (a stubbed URLSession, no server, no database). Foundation only, iOS 16 and macOS 13.
var products: [Product] = [
    // The typed client for iOS apps (and any Swift program): depend on it by this package's URL.
    .library(name: "PasskeyClient", targets: ["PasskeyClient"])
]
var targets: [Target] = [
    // The HTTP contract's bodies, compiled by the server and by the client alike (Foundation only).
    .target(name: "PasskeyWire", swiftSettings: strict),
    // The AuthenticationServices glue (`Sources/PasskeyClient/Apple/`) is part of
    // this module on Apple systems; on Linux it is compiled as `PasskeyClientGlue` below instead.
    .target(name: "PasskeyClient", dependencies: ["PasskeyWire"], exclude: glueExclude, swiftSettings: strict),
    // (on Linux also the glue's tests against the stand-in module)
    .testTarget(
        name: "PasskeyClientTests", dependencies: ["PasskeyClient", "PasskeyWire"] + glueTestDependencies,
        swiftSettings: strict),
]

// The server, its C libraries and its tests: only when the manifest is evaluated on Linux, where
// the server is built and deployed (it needs `Synchronization.Mutex`, macOS 15). An app that
// depends on this package by URL, or `swift build` on a Mac, sees only the targets above.
#if os(Linux)
    products.append(.executable(name: "passkey-server", targets: ["passkey-server"]))
    targets += [
        // C libraries from Debian's packages, one module each, wrapped once.
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CCrypt", pkgConfig: "libcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // epoll and eventfd behind plain-typed helpers (no library to link).
        .systemLibrary(name: "CEventLoop"),

        // The layers.
        .target(name: "PasskeyDomain", swiftSettings: strict),
        .target(name: "PasskeyApplication", dependencies: ["PasskeyDomain"], swiftSettings: strict),
        .target(name: "PasskeyOpenSSL", dependencies: ["COpenSSL"], swiftSettings: strict),
        // The fast path of the sign-in's two JSON documents, in front of JSONDecoder (docs/benchmark.md).
        .target(name: "PasskeyJSON", swiftSettings: strict),
        .target(
            name: "PasskeyWebAuthn",
            dependencies: ["PasskeyApplication", "PasskeyDomain", "PasskeyOpenSSL", "PasskeyJSON"],
            swiftSettings: strict),
        // The tokens' cryptography: ES256 JWS and AES-256-GCM at rest, on the OpenSSL wrapper.
        .target(
            name: "PasskeyCrypto",
            dependencies: ["PasskeyApplication", "PasskeyDomain", "PasskeyJSON", "PasskeyOpenSSL", "PasskeyWire"],
            swiftSettings: strict),
        // The event loops every request, statement and HTTP daemon runs on (one per core).
        .target(name: "PasskeyEventLoop", dependencies: ["CEventLoop"], swiftSettings: strict),
        .target(name: "PasskeyLibpq", dependencies: ["CLibpq", "PasskeyEventLoop"], swiftSettings: strict),
        .target(name: "PasskeyHTTP", dependencies: ["CMicroHTTPD", "PasskeyEventLoop"], swiftSettings: strict),
        .target(
            name: "PasskeyPasswordHashing",
            dependencies: ["PasskeyApplication", "PasskeyOpenSSL", "CSodium", "CCrypt"],
            swiftSettings: strict),
        .target(
            name: "PasskeyPersistence",
            dependencies: ["PasskeyApplication", "PasskeyDomain", "PasskeyLibpq"],
            swiftSettings: strict),
        // Mail delivery: SMTP through libcurl, or a folder of .eml files (docs/mail.md).
        .target(
            name: "PasskeyMail", dependencies: ["PasskeyCurl", "PasskeyApplication", "PasskeyDomain"],
            swiftSettings: strict),
        // libcurl, wrapped once: the SMTP mail transport and the webhooks' HTTP transport.
        .target(name: "PasskeyCurl", dependencies: ["CCurl"], swiftSettings: strict),
        // Webhook delivery: HTTP POSTs through libcurl (docs/webhooks.md).
        .target(
            name: "PasskeyWebhooks", dependencies: ["PasskeyCurl", "PasskeyApplication", "PasskeyDomain"],
            swiftSettings: strict),
        .target(
            name: "PasskeyServer",
            dependencies: [
                "PasskeyDomain", "PasskeyApplication", "PasskeyWebAuthn", "PasskeyPersistence",
                "PasskeyOpenSSL", "PasskeyHTTP", "PasskeyPasswordHashing", "PasskeyLibpq", "PasskeyWire", "PasskeyMail",
                "PasskeyEventLoop", "PasskeyJSON", "PasskeyCrypto", "PasskeyWebhooks",
            ],
            swiftSettings: strict),
        .executableTarget(name: "passkey-server", dependencies: ["PasskeyServer"], swiftSettings: strict),

        // Test support and one test target per source target.
        // The client's end-to-end flows against the built `passkey-server` executable, reached
        // only over HTTP as an app reaches it (a real server on a throwaway PostgreSQL database).
        .testTarget(
            name: "PasskeyClientEndToEndTests",
            dependencies: [
                "PasskeyClient", "PasskeyClientTestSupport", "PasskeyTestSupport", "PasskeyDatabaseTestSupport",
                "PasskeyWire", "PasskeyLibpq",
            ],
            swiftSettings: strict),
        // A platform for the bridge in tests: the software authenticator behind the controller seam
        // (the example app's tests use it too).
        .target(
            name: "PasskeyClientTestSupport", dependencies: ["PasskeyClient", "PasskeyTestSupport"],
            swiftSettings: strict),
        // Test support without a database (authenticator, fakes, clocks, processes, paths)…
        .target(
            name: "PasskeyTestSupport", dependencies: ["PasskeyDomain", "PasskeyApplication", "PasskeyOpenSSL"],
            swiftSettings: strict),
        // …and the throwaway PostgreSQL databases and clusters, for the tests that need one.
        .target(
            name: "PasskeyDatabaseTestSupport",
            dependencies: ["PasskeyTestSupport", "PasskeyPersistence", "PasskeyLibpq"],
            swiftSettings: strict),
        .testTarget(name: "PasskeyDomainTests", dependencies: ["PasskeyDomain"], swiftSettings: strict),
        .testTarget(name: "PasskeyOpenSSLTests", dependencies: ["PasskeyOpenSSL"], swiftSettings: strict),
        .testTarget(
            name: "PasskeyCryptoTests",
            dependencies: [
                "PasskeyCrypto", "PasskeyApplication", "PasskeyDomain", "PasskeyOpenSSL", "PasskeyTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyApplicationTests", dependencies: ["PasskeyApplication", "PasskeyTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyWebAuthnTests",
            dependencies: ["PasskeyWebAuthn", "PasskeyTestSupport", "PasskeyOpenSSL"],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyLibpqTests",
            dependencies: ["PasskeyLibpq", "PasskeyEventLoop", "PasskeyDatabaseTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyPersistenceTests",
            dependencies: [
                "PasskeyPersistence", "PasskeyApplication", "PasskeyTestSupport", "PasskeyDatabaseTestSupport",
                "PasskeyLibpq",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyServerTests",
            dependencies: [
                "PasskeyServer", "PasskeyTestSupport", "PasskeyDatabaseTestSupport", "PasskeyClient", "PasskeyWire",
                "PasskeyEventLoop", "PasskeyJSON", "PasskeyCrypto", "PasskeyOpenSSL",
            ],
            swiftSettings: strict),
        .testTarget(name: "PasskeyWireTests", dependencies: ["PasskeyWire"], swiftSettings: strict),
        .testTarget(
            name: "PasskeyWebhooksTests",
            dependencies: ["PasskeyWebhooks", "PasskeyApplication", "PasskeyDomain", "PasskeyTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyHTTPTests", dependencies: ["PasskeyHTTP", "PasskeyEventLoop"], swiftSettings: strict),
        .testTarget(name: "PasskeyEventLoopTests", dependencies: ["PasskeyEventLoop"], swiftSettings: strict),
        .testTarget(name: "PasskeyJSONTests", dependencies: ["PasskeyJSON"], swiftSettings: strict),
        .testTarget(
            name: "PasskeyMailTests",
            dependencies: [
                "PasskeyMail", "PasskeyApplication", "PasskeyDomain", "PasskeyPersistence", "PasskeyTestSupport",
                "PasskeyDatabaseTestSupport", "PasskeyLibpq",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyPasswordHashingTests", dependencies: ["PasskeyPasswordHashing", "PasskeyTestSupport"],
            swiftSettings: strict),

        // The glue checked on Linux (docs/ios.md): a stand-in AuthenticationServices module declaring
        // the Apple signatures the glue uses (never in a product), the glue compiled against it as its
        // own module that sees only PasskeyClient's public API, and PasskeyClientTests running it.
        .target(name: "AuthenticationServices", path: "Tests/StandIns/AuthenticationServices", swiftSettings: strict),
        // The same for Security (the Keychain calls of a token store), an in-memory keychain.
        .target(name: "Security", path: "Tests/StandIns/Security", swiftSettings: strict),
        .target(
            name: "PasskeyClientGlue", dependencies: ["PasskeyClient", "AuthenticationServices", "Security"],
            path: "Sources/PasskeyClient/Apple",
            swiftSettings: strict + [.define("PASSKEY_CLIENT_GLUE")]),

        // The example app (Examples/PasskeyMigrationApp, its README): the Presenters and Interactors
        // are built and tested here against the real server; the SwiftUI views (excluded) belong to an
        // Xcode app target and are only parse-checked by scripts/test.sh. Never part of a product.
        .target(
            name: "PasskeyMigrationApp", dependencies: ["PasskeyClient"],
            path: "Examples/PasskeyMigrationApp/Sources/PasskeyMigrationApp", exclude: ["Views"],
            swiftSettings: strict),
        .testTarget(
            name: "PasskeyMigrationAppTests",
            dependencies: [
                "PasskeyMigrationApp", "PasskeyClient", "PasskeyClientTestSupport", "PasskeyDatabaseTestSupport",
            ],
            path: "Examples/PasskeyMigrationApp/Tests/PasskeyMigrationAppTests", swiftSettings: strict),
    ]

    // Fuzzing (docs/webauthn.md, Fuzz/run.sh): only with FUZZ=1, built in its own scratch path with
    // sanitizer flags and libFuzzer's no-main runtime; a plain `swift build` never sees it.
    if Context.environment["FUZZ"] == "1" {
        targets.append(
            .executableTarget(
                name: "PasskeyWebAuthnFuzz", dependencies: ["PasskeyWebAuthn", "PasskeyJSON"],
                path: "Fuzz/Sources/PasskeyWebAuthnFuzz",
                swiftSettings: strict))
    }
#endif

let package = Package(
    name: "passkey-server",
    platforms: [.macOS(.v13), .iOS(.v16), .visionOS(.v1)],
    products: products,
    targets: targets
)
