internal import PasskeyWire

/// The `/.well-known/` documents, built once from configuration (nil = not configured = 404).
struct WellKnownDocuments: Sendable {
    let appleAppSiteAssociation: [UInt8]?
    let assetLinks: [UInt8]?
    let relatedOrigins: [UInt8]?
    let passkeyEndpoints: [UInt8]?

    /// Encoding these plain values cannot fail in practice; if it did, the server would not start
    /// (the error names the cause) rather than serve a broken document.
    init(configuration: ServerConfiguration) throws {
        struct AASA: Encodable {
            struct Credentials: Encodable { let apps: [String] }
            let webcredentials: Credentials
        }
        struct Statement: Encodable {
            struct Target: Encodable {
                let namespace = "android_app"
                let package_name: String
                let sha256_cert_fingerprints: [String]
            }
            let relation = ["delegate_permission/common.get_login_creds"]
            let target: Target
        }
        struct Origins: Encodable { let origins: [String] }
        struct Endpoints: Encodable {
            let enroll: String?
            let manage: String?
        }
        appleAppSiteAssociation =
            configuration.appleAppIDs.isEmpty
            ? nil : try WireJSON.body(AASA(webcredentials: .init(apps: configuration.appleAppIDs)))
        assetLinks =
            configuration.androidApps.isEmpty
            ? nil
            : try WireJSON.body(
                configuration.androidApps.map {
                    Statement(target: .init(package_name: $0.packageName, sha256_cert_fingerprints: [$0.fingerprint]))
                })
        relatedOrigins =
            configuration.relatedOrigins.isEmpty
            ? nil : try WireJSON.body(Origins(origins: configuration.relatedOrigins))
        passkeyEndpoints =
            configuration.enrollURL == nil && configuration.manageURL == nil
            ? nil : try WireJSON.body(Endpoints(enroll: configuration.enrollURL, manage: configuration.manageURL))
    }
}
