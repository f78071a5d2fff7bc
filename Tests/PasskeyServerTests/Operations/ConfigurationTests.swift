import Foundation
import PasskeyPersistence
import PasskeyTestSupport
import PasskeyWebAuthn
import Testing

@testable import PasskeyServer

@Suite struct ConfigurationTests {
    private let base = ["DATABASE_URL": "host=/tmp port=5432 user=postgres dbname=postgres"]

    @Test func defaultsFollowTheContract() throws {
        let configuration = try ServerConfiguration.load(from: base)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.policy.relyingPartyID == "localhost")
        #expect(configuration.policy.relyingPartyName == "Passkey Server")
        #expect(configuration.allowedOrigins == ["http://localhost:8080"])
        #expect(configuration.policy.sessionLifetime == 2_592_000)
        #expect(configuration.policy.challengeLifetime == 300)
        #expect(configuration.policy.conditionalUpgradeWindow == 300)
        #expect(configuration.policy.userVerification == .required)
        #expect(configuration.policy.algorithms.map(\.rawValue) == [-7, -8, -257])
        #expect(configuration.policy.startsPerMinute == 300)
        #expect(configuration.policy.passwordFailuresPerEmail == 10)
        #expect(configuration.policy.passwordFailuresPerAddress == 50)
        #expect(configuration.policy.passwordFailureWindow == 900)
        #expect(configuration.databasePoolSize == 2 * ProcessInfo.processInfo.activeProcessorCount)
        #expect(configuration.policy.reauthenticationWindow == 600)
        #expect(configuration.policy.recoverySessionLifetime == 900)
        #expect(configuration.policy.signupsPerAddress == 20)
        #expect(configuration.policy.maxPasskeysPerAccount == 50)
        #expect(configuration.policy.attestationConveyance == .none)
        #expect(
            try ServerConfiguration.load(from: base.merging(["MAX_PASSKEYS_PER_ACCOUNT": "1000"]) { $1 }).policy
                .maxPasskeysPerAccount == 1000)
        #expect(configuration.passwordHashQueueLimit == 64)
        #expect(configuration.httpMaxConnections == 1000)
        #expect(configuration.httpMaxConnectionsPerAddress == 64)
        #expect(configuration.httpRequestHeadTimeoutSeconds == 10)
        #expect(configuration.httpRequestBodyTimeoutSeconds == 30)
        #expect(configuration.shutdownDrainSeconds == 5)
        #expect(
            try ServerConfiguration.load(from: base.merging(["SHUTDOWN_DRAIN_SECONDS": "0"]) { $1 })
                .shutdownDrainSeconds == 0)
        #expect(configuration.eventLoops == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try ServerConfiguration.load(from: base.merging(["EVENT_LOOPS": "1"]) { $1 }).eventLoops == 1)
        #expect(
            try ServerConfiguration.load(from: base.merging(["HTTP_REQUEST_BODY_TIMEOUT_SECONDS": "5"]) { $1 })
                .httpRequestBodyTimeoutSeconds == 5)
        #expect(configuration.metricsToken == nil)
        #expect(configuration.webClientEnabled)
        #expect(
            try ServerConfiguration.load(from: base.merging(["WEB_CLIENT": "off"]) { $1 }).webClientEnabled == false)
    }

    @Test(arguments: [
        ("PORT", "eighty"), ("PORT", "70000"), ("PASSKEY_ORIGINS", "localhost:8080"),
        ("PASSKEY_ORIGINS", "https://a.example/path"),
        ("PASSKEY_ALGORITHMS", "ES256,HS256"), ("USER_VERIFICATION", "sometimes"),
        ("PASSKEY_ATTESTATION_POLICY", "strict"),
        ("PASSKEY_ANDROID_APPS", "com.example@SHA256:ZZ"), ("DATABASE_URL", "not a url"),
        ("SESSION_LIFETIME_SECONDS", "-1"),
        ("RATE_LIMIT_STARTS_PER_MINUTE", "many"), ("DATABASE_POOL_SIZE", "0"), ("LOG_LEVEL", "chatty"),
        ("PASSKEY_RP_ID", "https://example.com"), ("REAUTHENTICATION_WINDOW_SECONDS", "5"),
        ("RECOVERY_SESSION_LIFETIME_SECONDS", "0"),
        ("RATE_LIMIT_SIGNUPS_PER_ADDRESS", "-1"), ("PASSWORD_HASH_QUEUE_LIMIT", "0"),
        ("HTTP_MAX_CONNECTIONS", "0"), ("HTTP_MAX_CONNECTIONS_PER_ADDRESS", "x"),
        ("HTTP_REQUEST_HEAD_TIMEOUT_SECONDS", "0"), ("METRICS_TOKEN", "short"), ("TRUSTED_PROXIES", "10.0.0.0/40"),
        ("WEB_CLIENT", "yes"), ("MAX_PASSKEYS_PER_ACCOUNT", "0"), ("MAX_PASSKEYS_PER_ACCOUNT", "1001"),
        ("MAX_PASSKEYS_PER_ACCOUNT", "fifty"), ("ACCOUNT_EVENT_RETENTION_DAYS", "0"),
        ("ACCOUNT_EVENT_RETENTION_DAYS", "-1"), ("ACCOUNT_EVENT_RETENTION_DAYS", "a year"),
        ("EVENT_LOOPS", "0"), ("EVENT_LOOPS", "257"), ("EVENT_LOOPS", "all"),
        ("HTTP_REQUEST_BODY_TIMEOUT_SECONDS", "0"), ("HTTP_REQUEST_BODY_TIMEOUT_SECONDS", "3601"),
        ("SHUTDOWN_DRAIN_SECONDS", "-1"), ("SHUTDOWN_DRAIN_SECONDS", "301"), ("SHUTDOWN_DRAIN_SECONDS", "soon"),
    ])
    func invalidValuesNameTheirVariable(_ variable: String, _ value: String) {
        var env = base
        env[variable] = value
        #expect {
            _ = try ServerConfiguration.load(from: env)
        } throws: { error in
            let message = String(describing: error)
            return message.contains(variable) && !message.contains("\n")
        }
    }

    @Test func androidAppsAddTheirKeyHashOrigin() throws {
        var env = base
        env["PASSKEY_ANDROID_APPS"] = "com.example@SHA256:" + String(repeating: "AB:", count: 31) + "AB"
        let configuration = try ServerConfiguration.load(from: env)
        let origin = try #require(configuration.androidApps.first?.origin)
        #expect(origin == "android:apk-key-hash:" + String(repeating: "q6ur", count: 10) + "q6s")
        #expect(configuration.verifierOrigins.contains(origin))
        #expect(configuration.verifierOrigins.contains("http://localhost:8080"))
    }

    @Test func trustedClientAddressesComeFromTrustedProxiesOnly() throws {
        let resolver = ClientAddressResolver(trustedProxies: try Self.ranges("10.0.0.1", "10.0.0.2"))
        #expect(resolver.resolve(peer: "192.0.2.9", forwardedFor: ["203.0.113.1"]).address == "192.0.2.9")
        #expect(
            resolver.resolve(peer: "10.0.0.1", forwardedFor: ["203.0.113.1, 198.51.100.7"]).address == "198.51.100.7")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: ["203.0.113.1, 10.0.0.2"]).address == "203.0.113.1")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: []).address == "10.0.0.1")
    }

    /// The forged-line attack: the client sends its own `X-Forwarded-For` line, the proxy
    /// appends another. Before, only the first line was read and the client chose its address.
    @Test func everyForwardedForLineCountsSoAForgedFirstLineIsNotBelieved() throws {
        let resolver = ClientAddressResolver(trustedProxies: try Self.ranges("127.0.0.1"))
        #expect(
            resolver.resolve(peer: "127.0.0.1", forwardedFor: ["1.2.3.4", "198.51.100.7"]).address == "198.51.100.7")
        #expect(
            resolver.resolve(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 5.6.7.8", "198.51.100.7, 127.0.0.1"]).address
                == "198.51.100.7")
    }

    @Test func cidrRangesOfBothFamiliesAreTrusted() throws {
        let resolver = ClientAddressResolver(trustedProxies: try Self.ranges("10.0.0.0/8", "fd00::/8", "::1"))
        #expect(resolver.resolve(peer: "10.20.30.40", forwardedFor: ["203.0.113.1"]).address == "203.0.113.1")
        #expect(resolver.resolve(peer: "11.0.0.1", forwardedFor: ["203.0.113.1"]).address == "11.0.0.1")
        #expect(resolver.resolve(peer: "fd12::1", forwardedFor: ["2001:db8::1, 10.1.1.1"]).address == "2001:db8::1")
        #expect(resolver.resolve(peer: "::1", forwardedFor: ["203.0.113.9"]).address == "203.0.113.9")
        #expect(resolver.resolve(peer: "fe80::1", forwardedFor: ["203.0.113.9"]).address == "fe80::1")
    }

    @Test func invalidTrustedProxiesStopTheServerWithOneLine() {
        for bad in ["proxy.example.com", "10.0.0.0/33", "10.0.0.0/", "::/129", "10.0.0.256", "1.2.3.4/8x"] {
            #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.load(from: ["DATABASE_URL": "host=/tmp dbname=x", "TRUSTED_PROXIES": bad])
            }
        }
        let fine = try? ServerConfiguration.load(
            from: ["DATABASE_URL": "host=/tmp dbname=x", "TRUSTED_PROXIES": "10.0.0.0/8, 2001:db8::/32, 127.0.0.1"])
        #expect(fine?.trustedProxies.count == 3)
        // (v3) Behind proxies the per-address connection limit stays on; only the proxies are
        // not counted (`ProxyConnectionLimitTests`).
        #expect(fine?.httpMaxConnectionsPerAddress == 64)
    }

    @Test func ipv6ClientsAreLimitedPerSlash64() {
        #expect(ClientAddressResolver.rateLimitKey(for: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(
            ClientAddressResolver.rateLimitKey(for: "2001:db8:1:2:ffff:ffff:ffff:ffff")
                == ClientAddressResolver.rateLimitKey(for: "2001:db8:1:2::5"))
        #expect(ClientAddressResolver.rateLimitKey(for: "2001:db8:1:3::5") != "2001:db8:1:2::/64")
        #expect(ClientAddressResolver.rateLimitKey(for: "192.0.2.1") == "192.0.2.1")
        #expect(ClientAddressResolver.rateLimitKey(for: "::ffff:192.0.2.1") == "192.0.2.1")
    }

    private static func ranges(_ entries: String...) throws -> [IPAddressRange] {
        try ClientAddressResolver.parse(entries).get()
    }
}

@Suite struct TrustAnchorConfigurationTests {
    @Test func theShippedTrustAnchorsLoadAndABadFolderStopsTheServer() throws {
        var env = ["DATABASE_URL": "host=/tmp dbname=x", "PASSKEY_ATTESTATION_POLICY": "trusted"]
        env["PASSKEY_TRUST_ANCHORS_DIR"] = PackagePaths.root.appendingPathComponent("TrustAnchors").path
        let anchors = try CompositionRoot.trustAnchors(ServerConfiguration.load(from: env))
        #expect(anchors.byFormat["apple"]?.count == 1)
        #expect(anchors.byFormat["tpm"]?.count == 1)
        #expect(anchors.allFormats.isEmpty)
        env["PASSKEY_TRUST_ANCHORS_DIR"] = "/nonexistent-anchors"
        #expect {
            _ = try CompositionRoot.trustAnchors(ServerConfiguration.load(from: env))
        } throws: { error in
            String(describing: error).contains("PASSKEY_TRUST_ANCHORS_DIR")
        }
    }

    /// The composition root passes the verifier's cause on (it once said only "a file is not an
    /// X.509 certificate"); no database is reached before the verifier is built.
    @Test func anAnchorThatIsNotACertificateStopsTheServerNamingItsFile() throws {
        let env = ["DATABASE_URL": "host=/nonexistent dbname=x"]
        let configuration = try ServerConfiguration.load(from: env)
        let notACertificate: [UInt8] = [0x30, 0x00]
        let anchors = TrustAnchors(
            byFormat: ["packed": [notACertificate]], files: [notACertificate: "/etc/anchors/packed/yubico.pem"])
        #expect {
            _ = try CompositionRoot(
                configuration: configuration, migrationsFolder: PackagePaths.migrations, trustAnchors: anchors)
        } throws: { error in
            String(describing: error)
                == "invalid configuration: PASSKEY_TRUST_ANCHORS_DIR: trust anchor at index 0 of format folder packed/"
                + " (from /etc/anchors/packed/yubico.pem) is not a DER X.509 certificate"
        }
    }
}
