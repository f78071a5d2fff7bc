internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain

/// Everything the environment configures (../shared/spec.md, "Configuration").
struct ServerConfiguration: Sendable {
    var databaseURL: String
    var host: String
    var port: Int
    var policy: PasskeyPolicy
    var allowedOrigins: [String]
    var appleAppIDs: [String]
    var androidApps: [AndroidApp]
    var relatedOrigins: [String]
    var attestationPolicy: Attestation
    var trustAnchorsDirectory: String?
    var enrollURL: String?
    var manageURL: String?
    var trustedProxies: [IPAddressRange]
    var corsAllowedOrigins: Set<String>
    var databasePoolSize: Int
    var logLevel: LogLevel
    /// Password hashes (and, separately, verifications) allowed to wait (`PASSWORD_HASH_QUEUE_LIMIT`).
    var passwordHashQueueLimit: Int = 64
    /// `HTTP_MAX_CONNECTIONS`.
    var httpMaxConnections: Int = 1000
    /// `HTTP_MAX_CONNECTIONS_PER_ADDRESS` per peer address (IPv6 per /64); 0 = off. Peers inside
    /// `trustedProxies` are never counted.
    var httpMaxConnectionsPerAddress: Int = 64
    /// `HTTP_REQUEST_HEAD_TIMEOUT_SECONDS`.
    var httpRequestHeadTimeoutSeconds: Int = 10
    /// `HTTP_REQUEST_BODY_TIMEOUT_SECONDS`: a request body must be complete this long after its
    /// head, or the client gets 408 and the connection is closed.
    var httpRequestBodyTimeoutSeconds: Int = 30
    /// (v3) `SHUTDOWN_DRAIN_SECONDS`: after SIGTERM, how long `/readyz` answers 503 while requests
    /// are still served, before the listener closes (a balancer's health check needs that long
    /// to stop routing here).
    var shutdownDrainSeconds: Int = 5
    /// `EVENT_LOOPS`: request-serving threads, each with its own HTTP daemon and share of the
    /// database pool (default: one per online CPU).
    var eventLoops: Int = 1
    /// `METRICS_TOKEN`: when set, `/metrics` needs it as a bearer token.
    var metricsToken: String?
    /// (v3) `OPERATOR_TOKEN`: the bearer token of `GET /v1/operator/adoption`; nil (unset) answers
    /// it 404, as if the route did not exist.
    var operatorToken: String?
    /// `DATABASE_PREPARED_STATEMENTS` (`on`/`off`): off behind a transaction-pooling PgBouncer.
    var databasePreparedStatements: Bool = true
    /// `WEB_CLIENT`: serve the reference web client at `/` (on by default).
    var webClientEnabled = true
    /// (v3) `MAIL_URL`, `MAIL_FROM`, `MAIL_MAX_ATTEMPTS`; nil when mail is off (`policy.mail.enabled`
    /// is false then).
    var mail: MailSettings?
    /// (v3) `ACCOUNT_EVENT_RETENTION_DAYS`: `sweep` deletes activity older than this.
    var accountEventRetentionDays = 400
    /// (v4) `WEBHOOK_EVENT_RETENTION_DAYS`: `sweep` deletes the event log's payloads older than this.
    var webhookEventRetentionDays = 30
    /// (v4) `WEBHOOK_TIMEOUT_SECONDS`: one delivery attempt, connection included.
    var webhookTimeoutSeconds = 10
    /// (v4) `WEBHOOK_MAX_ATTEMPTS`: attempts before a delivery is abandoned.
    var webhookMaxAttempts = 12
    /// (v4) `DATA_ENCRYPTION_KEY`, `TOKEN_*`, `INTROSPECTION_CLIENTS`.
    var tokens = TokenSettings.off(issuer: "")

    /// `PASSKEY_ATTESTATION_POLICY`: `any` accepts an unknown CA and records the attestation type;
    /// `trusted` requires a chain to an anchor of `PASSKEY_TRUST_ANCHORS_DIR`.
    enum Attestation: Sendable, Equatable {
        case any
        case trusted
    }

    /// An Android app allowed to use the passkeys (`package.name@SHA256:FINGERPRINT`).
    struct AndroidApp: Sendable, Equatable {
        var packageName: String
        /// Colon-separated uppercase hex, as assetlinks.json wants it.
        var fingerprint: String
        /// The `android:apk-key-hash:` origin its WebAuthn client data carries.
        var origin: String
    }

    /// Every origin the verifier accepts: configured ones plus the Android apps' key-hash origins.
    var verifierOrigins: Set<String> {
        Set(allowedOrigins).union(androidApps.map(\.origin))
    }
}

/// Invalid configuration: stops the server at start with one line naming the variable.
struct ConfigurationError: Error, CustomStringConvertible {
    let variable: String
    let problem: String
    var description: String { "invalid configuration: \(variable): \(problem)" }
}

enum LogLevel: String, Sendable, Comparable {
    case debug, info, warning, error

    static func < (a: LogLevel, b: LogLevel) -> Bool {
        let order: [LogLevel] = [.debug, .info, .warning, .error]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }
}
