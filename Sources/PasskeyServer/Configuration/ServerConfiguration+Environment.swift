internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain

extension ServerConfiguration {
    /// Reads and validates the environment. `requireDatabase` is false for commands that need none;
    /// `databaseURLProblem` says what is wrong with a `DATABASE_URL` (the composition root passes
    /// libpq's parser: `ServerConfiguration.load`).
    static func parse(
        from env: [String: String], requireDatabase: Bool = true, databaseURLProblem: (String) -> String?
    ) throws(ConfigurationError) -> ServerConfiguration {
        let reader = EnvironmentReader(env)
        let databaseURL = env["DATABASE_URL"] ?? ""
        if requireDatabase {
            guard !databaseURL.isEmpty else { throw ConfigurationError(variable: "DATABASE_URL", problem: "not set") }
            if let problem = databaseURLProblem(databaseURL) {
                throw ConfigurationError(variable: "DATABASE_URL", problem: problem)
            }
        }
        let host = reader.string("HOST", default: "127.0.0.1")
        let port = try reader.integer("PORT", default: 8080, range: 0...65_535)
        let rpID = reader.string("PASSKEY_RP_ID", default: "localhost").lowercased()
        guard !rpID.isEmpty, !rpID.contains("/"), !rpID.contains(":"), !rpID.contains(" ") else {
            throw ConfigurationError(variable: "PASSKEY_RP_ID", problem: "must be a domain such as example.com")
        }
        let rpName = reader.string("PASSKEY_RP_NAME", default: "Passkey Server")
        let origins = try reader.list("PASSKEY_ORIGINS", default: ["http://localhost:8080"]).map {
            (origin: String) throws(ConfigurationError) -> String in
            guard Self.isOrigin(origin) else {
                throw ConfigurationError(variable: "PASSKEY_ORIGINS", problem: "'\(origin)' is not an origin")
            }
            return origin
        }
        let androidApps = try reader.list("PASSKEY_ANDROID_APPS", default: []).map(Self.androidApp)
        let relatedOrigins = reader.list("PASSKEY_RELATED_ORIGINS", default: [])
        let algorithms = try reader.list("PASSKEY_ALGORITHMS", default: ["ES256", "EdDSA", "RS256"]).map {
            (name: String) throws(ConfigurationError) -> COSEAlgorithm in
            guard let algorithm = COSEAlgorithm(name: name),
                [.es256, .edDSA, .rs256, .es384, .es512, .ps256].contains(algorithm)
            else {
                throw ConfigurationError(variable: "PASSKEY_ALGORITHMS", problem: "unsupported algorithm '\(name)'")
            }
            return algorithm
        }
        guard !algorithms.isEmpty else {
            throw ConfigurationError(variable: "PASSKEY_ALGORITHMS", problem: "at least one algorithm is needed")
        }
        let userVerification: UserVerificationPolicy
        switch reader.string("USER_VERIFICATION", default: "required") {
        case "required": userVerification = .required
        case "preferred": userVerification = .preferred
        default: throw ConfigurationError(variable: "USER_VERIFICATION", problem: "must be required or preferred")
        }
        let attestationPolicy: ServerConfiguration.Attestation
        switch reader.string("PASSKEY_ATTESTATION_POLICY", default: "any") {
        case "any": attestationPolicy = .any
        case "trusted": attestationPolicy = .trusted
        default: throw ConfigurationError(variable: "PASSKEY_ATTESTATION_POLICY", problem: "must be any or trusted")
        }
        let anchors = env["PASSKEY_TRUST_ANCHORS_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        if attestationPolicy == .trusted, anchors == nil {
            throw ConfigurationError(variable: "PASSKEY_TRUST_ANCHORS_DIR", problem: "required with the trusted policy")
        }
        var policy = PasskeyPolicy(
            relyingPartyID: rpID, relyingPartyName: rpName,
            challengeLifetime: TimeInterval(
                try reader.integer("CHALLENGE_LIFETIME_SECONDS", default: 300, range: 10...86_400)),
            sessionLifetime: TimeInterval(
                try reader.integer("SESSION_LIFETIME_SECONDS", default: 2_592_000, range: 60...31_536_000)),
            conditionalUpgradeWindow: TimeInterval(
                try reader.integer("CONDITIONAL_UPGRADE_WINDOW_SECONDS", default: 300, range: 1...86_400)),
            userVerification: userVerification, algorithms: algorithms,
            startsPerMinute: try reader.integer("RATE_LIMIT_STARTS_PER_MINUTE", default: 300, range: 0...1_000_000),
            passwordFailuresPerEmail: try reader.integer(
                "RATE_LIMIT_PASSWORD_PER_EMAIL", default: 10, range: 1...1_000_000),
            passwordFailuresPerAddress: try reader.integer(
                "RATE_LIMIT_PASSWORD_PER_ADDRESS", default: 50, range: 1...1_000_000),
            passwordFailureWindow: TimeInterval(
                try reader.integer("RATE_LIMIT_WINDOW_SECONDS", default: 900, range: 1...86_400)),
            reauthenticationWindow: TimeInterval(
                try reader.integer("REAUTHENTICATION_WINDOW_SECONDS", default: 600, range: 10...31_536_000)),
            signupsPerAddress: try reader.integer(
                "RATE_LIMIT_SIGNUPS_PER_ADDRESS", default: 20, range: 0...1_000_000),
            recoverySessionLifetime: TimeInterval(
                try reader.integer("RECOVERY_SESSION_LIFETIME_SECONDS", default: 900, range: 60...86_400)))
        policy.maxPasskeysPerAccount = try reader.integer("MAX_PASSKEYS_PER_ACCOUNT", default: 50, range: 1...1000)
        let mail = try Self.mailSettings(reader: reader, relyingPartyID: rpID)
        policy.mail = MailPolicy(
            enabled: mail != nil,
            codeLifetime: TimeInterval(
                try reader.integer("EMAIL_CODE_LIFETIME_SECONDS", default: 600, range: 60...86_400)),
            sendsPerHour: try reader.integer("EMAIL_SENDS_PER_HOUR", default: 5, range: 1...1_000),
            securityNotifications: try reader.onOff("SECURITY_NOTIFICATIONS", default: true))
        // The trusted policy checks the attestation statement's chain, so the options must ask for it.
        policy.attestationConveyance = attestationPolicy == .trusted ? .direct : .none
        let trustedProxies: [IPAddressRange]
        switch ClientAddressResolver.parse(reader.list("TRUSTED_PROXIES", default: [])) {
        case .success(let ranges): trustedProxies = ranges
        case .failure(let invalid):
            throw ConfigurationError(
                variable: "TRUSTED_PROXIES", problem: "'\(invalid.entry)' is not an IP address or CIDR range")
        }
        let preparedStatements: Bool
        switch reader.string("DATABASE_PREPARED_STATEMENTS", default: "on").lowercased() {
        case "on": preparedStatements = true
        case "off": preparedStatements = false
        default: throw ConfigurationError(variable: "DATABASE_PREPARED_STATEMENTS", problem: "must be on or off")
        }
        let metricsToken = env["METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let metricsToken, metricsToken.utf8.count < 16 || metricsToken.utf8.count > 512 {
            throw ConfigurationError(variable: "METRICS_TOKEN", problem: "must be 16 to 512 bytes long")
        }
        let webClientEnabled: Bool
        switch reader.string("WEB_CLIENT", default: "on").lowercased() {
        case "on": webClientEnabled = true
        case "off": webClientEnabled = false
        default: throw ConfigurationError(variable: "WEB_CLIENT", problem: "must be on or off")
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let logLevel = LogLevel(rawValue: reader.string("LOG_LEVEL", default: "info").lowercased())
        guard let logLevel else {
            throw ConfigurationError(variable: "LOG_LEVEL", problem: "must be debug, info, warning or error")
        }
        let operatorToken = env["OPERATOR_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let operatorToken, operatorToken.utf8.count < 16 || operatorToken.utf8.count > 512 {
            throw ConfigurationError(variable: "OPERATOR_TOKEN", problem: "must be 16 to 512 bytes long")
        }
        var configuration = ServerConfiguration(
            databaseURL: databaseURL, host: host, port: port, policy: policy, allowedOrigins: origins,
            appleAppIDs: reader.list("PASSKEY_APPLE_APP_IDS", default: []), androidApps: androidApps,
            relatedOrigins: relatedOrigins, attestationPolicy: attestationPolicy, trustAnchorsDirectory: anchors,
            enrollURL: env["PASSKEY_ENROLL_URL"].flatMap { $0.isEmpty ? nil : $0 },
            manageURL: env["PASSKEY_MANAGE_URL"].flatMap { $0.isEmpty ? nil : $0 },
            trustedProxies: trustedProxies,
            corsAllowedOrigins: Set(reader.list("CORS_ALLOWED_ORIGINS", default: [])),
            databasePoolSize: try reader.integer("DATABASE_POOL_SIZE", default: 2 * cores, range: 1...1000),
            logLevel: logLevel,
            passwordHashQueueLimit: try reader.integer("PASSWORD_HASH_QUEUE_LIMIT", default: 64, range: 1...100_000),
            httpMaxConnections: try reader.integer("HTTP_MAX_CONNECTIONS", default: 1000, range: 1...100_000),
            // (v3) Peers inside TRUSTED_PROXIES are not counted (every client comes through them);
            // every other peer is, also behind proxies.
            httpMaxConnectionsPerAddress: try reader.integer(
                "HTTP_MAX_CONNECTIONS_PER_ADDRESS", default: 64, range: 0...100_000),
            httpRequestHeadTimeoutSeconds: try reader.integer(
                "HTTP_REQUEST_HEAD_TIMEOUT_SECONDS", default: 10, range: 1...3_600),
            metricsToken: metricsToken, databasePreparedStatements: preparedStatements,
            webClientEnabled: webClientEnabled, mail: mail,
            accountEventRetentionDays: try reader.integer(
                "ACCOUNT_EVENT_RETENTION_DAYS", default: 400, range: 1...36_500))
        configuration.operatorToken = operatorToken
        configuration.httpRequestBodyTimeoutSeconds = try reader.integer(
            "HTTP_REQUEST_BODY_TIMEOUT_SECONDS", default: 30, range: 1...3_600)
        configuration.eventLoops = try reader.integer("EVENT_LOOPS", default: cores, range: 1...256)
        configuration.webhookEventRetentionDays = try reader.integer(
            "WEBHOOK_EVENT_RETENTION_DAYS", default: 30, range: 1...400)
        configuration.webhookTimeoutSeconds = try reader.integer("WEBHOOK_TIMEOUT_SECONDS", default: 10, range: 1...60)
        configuration.webhookMaxAttempts = try reader.integer("WEBHOOK_MAX_ATTEMPTS", default: 12, range: 1...50)
        configuration.shutdownDrainSeconds = try reader.integer("SHUTDOWN_DRAIN_SECONDS", default: 5, range: 0...300)
        configuration.tokens = try TokenSettings.load(env, defaultIssuer: origins.first ?? "https://\(rpID)") {
            name, value, range throws(ConfigurationError) in try reader.integer(name, default: value, range: range)
        }
        return configuration
    }

    /// (v3) `MAIL_URL`, `MAIL_FROM` and `MAIL_MAX_ATTEMPTS`; nil (mail off) when `MAIL_URL` is unset.
    private static func mailSettings(
        reader: EnvironmentReader, relyingPartyID: String
    ) throws(ConfigurationError) -> MailSettings? {
        let url = reader.string("MAIL_URL", default: "")
        guard !url.isEmpty else { return nil }
        let transport = try MailSettings.transport(from: url)
        let fromText = reader.string("MAIL_FROM", default: "no-reply@\(relyingPartyID)")
        // Plain ASCII `local@domain`: it goes into `From:` and SMTP's `MAIL FROM:<…>` as it is.
        guard let from = EmailAddress(fromText), fromText.unicodeScalars.allSatisfy({ $0.isASCII }),
            !fromText.contains(where: { "<>,;\"()[]\\".contains($0) })
        else {
            throw ConfigurationError(variable: "MAIL_FROM", problem: "must be an address such as no-reply@example.com")
        }
        var settings = MailSettings(
            transport: transport, from: from,
            maxAttempts: try reader.integer("MAIL_MAX_ATTEMPTS", default: 8, range: 1...100))
        settings.pollInterval =
            Double(try reader.integer("MAIL_POLL_INTERVAL_MILLISECONDS", default: 1_000, range: 10...600_000)) / 1000
        settings.retryBase =
            Double(try reader.integer("MAIL_RETRY_BASE_MILLISECONDS", default: 30_000, range: 1...3_600_000)) / 1000
        settings.lease =
            Double(try reader.integer("MAIL_LEASE_MILLISECONDS", default: 120_000, range: 100...3_600_000)) / 1000
        return settings
    }

    /// `scheme://host[:port]` with nothing after it, or an Android key-hash facet.
    static func isOrigin(_ value: String) -> Bool {
        if value.hasPrefix("android:apk-key-hash:") { return value.count > "android:apk-key-hash:".count }
        guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else { return false }
        return url.path.isEmpty && url.query == nil && url.fragment == nil && !value.hasSuffix("/")
    }

    /// `package.name@SHA256:AB:CD:…` (32 bytes) → the app and its `android:apk-key-hash:` origin.
    static func androidApp(_ value: String) throws(ConfigurationError) -> AndroidApp {
        let problem = ConfigurationError(
            variable: "PASSKEY_ANDROID_APPS", problem: "'\(value)' is not package.name@SHA256:FINGERPRINT")
        let parts = value.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].uppercased().hasPrefix("SHA256:") else { throw problem }
        let hex = parts[1].dropFirst("SHA256:".count).replacingOccurrences(of: ":", with: "")
        guard hex.count == 64 else { throw problem }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { throw problem }
            bytes.append(byte)
            index = next
        }
        let fingerprint = bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
        return AndroidApp(
            packageName: parts[0], fingerprint: fingerprint, origin: "android:apk-key-hash:" + Base64URL.encode(bytes))
    }
}

/// Reads typed values from the environment, with the variable's name in every error.
private struct EnvironmentReader {
    let env: [String: String]
    init(_ env: [String: String]) { self.env = env }

    func string(_ name: String, default value: String) -> String {
        guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return value }
        return raw
    }

    func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return value }
        guard let number = Int(raw), range.contains(number) else {
            throw ConfigurationError(
                variable: name, problem: "must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    func onOff(_ name: String, default value: Bool) throws(ConfigurationError) -> Bool {
        switch string(name, default: value ? "on" : "off").lowercased() {
        case "on": return true
        case "off": return false
        default: throw ConfigurationError(variable: name, problem: "must be on or off")
        }
    }

    func list(_ name: String, default value: [String]) -> [String] {
        guard let raw = env[name], !raw.trimmingCharacters(in: .whitespaces).isEmpty else { return value }
        return raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
