import Foundation
import PasskeyTestSupport
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
    }

    @Test(arguments: [
        ("PORT", "eighty"), ("PORT", "70000"), ("PASSKEY_ORIGINS", "localhost:8080"),
        ("PASSKEY_ORIGINS", "https://a.example/path"),
        ("PASSKEY_ALGORITHMS", "ES256,HS256"), ("USER_VERIFICATION", "sometimes"),
        ("PASSKEY_ATTESTATION_POLICY", "strict"),
        ("PASSKEY_ANDROID_APPS", "com.example@SHA256:ZZ"), ("DATABASE_URL", "not a url"),
        ("SESSION_LIFETIME_SECONDS", "-1"),
        ("RATE_LIMIT_STARTS_PER_MINUTE", "many"), ("DATABASE_POOL_SIZE", "0"), ("LOG_LEVEL", "chatty"),
        ("PASSKEY_RP_ID", "https://example.com"),
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

    @Test func trustedClientAddressesComeFromTrustedProxiesOnly() {
        let resolver = ClientAddressResolver(trustedProxies: ["10.0.0.1", "10.0.0.2"])
        #expect(resolver.resolve(peer: "192.0.2.9", forwardedFor: "203.0.113.1") == "192.0.2.9")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: "203.0.113.1, 198.51.100.7") == "198.51.100.7")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: "203.0.113.1, 10.0.0.2") == "203.0.113.1")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: nil) == "10.0.0.1")
    }
}

@Suite struct TrustAnchorConfigurationTests {
    @Test func theShippedTrustAnchorsLoadAndABadFolderStopsTheServer() throws {
        var env = ["DATABASE_URL": "host=/tmp dbname=x", "PASSKEY_ATTESTATION_POLICY": "trusted"]
        env["PASSKEY_TRUST_ANCHORS_DIR"] = PackagePaths.root.appendingPathComponent("TrustAnchors").path
        let anchors = try ServerConfiguration.load(from: env).loadTrustAnchors()
        #expect(anchors.byFormat["apple"]?.count == 1)
        #expect(anchors.byFormat["tpm"]?.count == 1)
        #expect(anchors.allFormats.isEmpty)
        env["PASSKEY_TRUST_ANCHORS_DIR"] = "/nonexistent-anchors"
        #expect {
            _ = try ServerConfiguration.load(from: env).loadTrustAnchors()
        } throws: { error in
            String(describing: error).contains("PASSKEY_TRUST_ANCHORS_DIR")
        }
    }
}
