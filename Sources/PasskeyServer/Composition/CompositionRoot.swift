internal import Foundation
internal import PasskeyApplication
internal import PasskeyCrypto
internal import PasskeyEventLoop
internal import PasskeyLibpq
internal import PasskeyMail
internal import PasskeyPasswordHashing
internal import PasskeyPersistence
internal import PasskeyWebAuthn
internal import PasskeyWebhooks

/// The one composition root: the only place of `PasskeyServer` that names the adapters
/// (PostgreSQL, the WebAuthn verifier, OpenSSL, libsodium, libcurl). It builds them from the
/// configuration and hands them out as ports (`Dependencies`) to `serve` and to every command.
///
/// It owns the event loops (`EVENT_LOOPS`) and the pool, split into one share per loop: created
/// and started here, stopped by `shutdown()`, which closes the pool's connections and then ends
/// the loops' threads and joins them.
final class CompositionRoot: Sendable {
    let configuration: ServerConfiguration
    let dependencies: Dependencies
    private let loops: EventLoopGroup
    private let pool: PostgresConnectionPool
    private let migrations: MigrationRunner

    /// `connections` overrides `DATABASE_POOL_SIZE` (the one-shot commands need one);
    /// `trustAnchors` replaces those of `PASSKEY_TRUST_ANCHORS_DIR` (tests); `statementObserver`
    /// is called on the thread of every statement (tests).
    init(
        configuration: ServerConfiguration, migrationsFolder: URL, connections: Int? = nil,
        clock: any WallClock = SystemClock(), trustAnchors: TrustAnchors? = nil,
        statementObserver: (@Sendable () -> Void)? = nil
    ) throws(ConfigurationError) {
        let migrations: [Migration]
        do {
            migrations = try Migration.load(from: migrationsFolder)
        } catch {
            throw ConfigurationError(variable: "PASSKEY_MIGRATIONS_DIR", problem: "\(migrationsFolder.path): \(error)")
        }
        let policy = configuration.policy
        let verifier: WebAuthnCredentialVerifier
        do {
            verifier = try WebAuthnCredentialVerifier(
                configuration: WebAuthnVerifierConfiguration(
                    relyingPartyID: policy.relyingPartyID, allowedOrigins: configuration.verifierOrigins,
                    allowedAlgorithms: policy.algorithms,
                    attestationPolicy: configuration.attestationPolicy == .trusted ? .trusted : .any,
                    trustAnchors: try trustAnchors ?? Self.trustAnchors(configuration)))
        } catch let error as ConfigurationError {
            throw error
        } catch {
            // The verifier's own error names the format folder, the anchor and its file.
            throw ConfigurationError(variable: "PASSKEY_TRUST_ANCHORS_DIR", problem: "\(error)")
        }
        // A one-shot command (one connection) needs one loop; `serve` gets `EVENT_LOOPS`.
        let loops = EventLoopGroup(count: connections == nil ? configuration.eventLoops : 1)
        let pool = PostgresConnectionPool(
            configuration: .init(
                conninfo: configuration.databaseURL,
                maximumConnections: connections ?? configuration.databasePoolSize,
                preparedStatements: configuration.databasePreparedStatements, statementObserver: statementObserver,
                rollbackFailureObserver: { [logger = Logger(level: configuration.logLevel)] error in
                    // The caller answered from the error that made it roll back; this one is the
                    // operator's (the connection was discarded).
                    logger.error([.event: "rollback_failed", .cause: error.logDescription])
                }),
            loops: loops.loops)
        let runner = MigrationRunner(migrations: migrations)
        let hasher = Argon2PasswordHasher(waitingLimit: configuration.passwordHashQueueLimit)
        self.configuration = configuration
        self.loops = loops
        self.pool = pool
        self.migrations = runner
        let sealer = configuration.tokens.dataEncryptionKey.flatMap(AESGCMSecretSealer.init(key:))
        let signingKeys = PostgresSigningKeyRepository(pool: pool)
        self.dependencies = Dependencies(
            store: PostgresUnitOfWork(pool: pool), accounts: PostgresAccountRepository(pool: pool),
            passkeys: PostgresPasskeyCredentialRepository(pool: pool),
            passkeyRegistrations: PostgresPasskeyRegistrationRepository(pool: pool),
            passkeyAuthentications: PostgresPasskeyAuthenticationRepository(pool: pool),
            accountRegistrations: PostgresAccountRegistrationRepository(pool: pool),
            sessions: PostgresSessionRepository(pool: pool), rateLimits: PostgresRateLimitRepository(pool: pool),
            accountEvents: PostgresAccountEventRepository(pool: pool),
            maintenance: PostgresMaintenanceRepository(
                pool: pool, migrations: runner, passwordFailureWindow: Int(policy.passwordFailureWindow),
                eventRetentionDays: configuration.accountEventRetentionDays,
                webhookEventRetentionDays: configuration.webhookEventRetentionDays),
            adoption: PostgresAdoptionRepository(pool: pool),
            mailOutbox: PostgresMailOutboxRepository(pool: pool),
            mailTransport: configuration.mail.map(Self.mailTransport),
            verifier: verifier, hasher: hasher, tokens: OpenSSLSessionTokenGenerator(),
            random: OpenSSLRandomGenerator(), digester: OpenSSLSecretDigester(), names: KnownAuthenticatorNames(),
            clock: clock, signingKeys: signingKeys, tokenSessions: PostgresTokenSessionRepository(pool: pool),
            tokenFormat: ES256AccessTokenFormat(), sealer: sealer,
            signingKeyCache: sealer.map { SigningKeyCache(repository: signingKeys, sealer: $0, clock: clock) },
            eventLog: PostgresEventLogRepository(pool: pool),
            webhooks: PostgresWebhookRepository(pool: pool),
            webhookDeliveries: PostgresWebhookDeliveryRepository(pool: pool),
            webhookTransport: CurlWebhookTransport(timeoutSeconds: Double(configuration.webhookTimeoutSeconds)),
            webhookFormat: StandardWebhookMessageFormat(),
            operators: PostgresOperatorRepository(pool: pool),
            loops: loops,
            passwordHashingLoad: {
                let load = hasher.metrics
                return PasswordHashingLoad(running: load.running, waiting: load.waiting, refused: load.refused)
            })
    }

    /// Every use case, over these ports and the configured policy (the one application factory).
    var useCases: UseCases {
        UseCases(
            dependencies: dependencies, policy: configuration.policy, tokens: configuration.tokens,
            operatorToken: configuration.operatorToken)
    }

    /// How many migrations this build carries.
    var migrationCount: Int { migrations.migrations.count }

    /// Applies the pending migrations; returns their names.
    func migrate() async throws -> [String] {
        try await migrations.migrate(pool: pool)
    }

    /// Closes the pool's connections, then stops the event loops and joins their threads. Call
    /// it once the HTTP server has stopped and the requests in flight have finished.
    func shutdown() {
        pool.close()
        loops.shutdown()
    }

    /// The transport `MAIL_URL` names: SMTP through libcurl, or a folder of `.eml` files.
    static func mailTransport(_ settings: MailSettings) -> any MailTransport {
        switch settings.transport {
        case .file(let folder):
            return FileMailTransport(folder: URL(fileURLWithPath: folder, isDirectory: true), from: settings.from)
        case .smtp(let host, let port, let security, let username, let password):
            let mapped: SMTPSecurity =
                switch security {
                case .startTLS: .startTLS
                case .implicitTLS: .implicitTLS
                case .plainLoopback: .plainLoopback
                }
            return SMTPMailTransport(
                configuration: .init(
                    host: host, port: port, security: mapped, username: username, password: password,
                    from: settings.from))
        }
    }

    /// The anchors of `PASSKEY_TRUST_ANCHORS_DIR` (none when unset).
    static func trustAnchors(_ configuration: ServerConfiguration) throws(ConfigurationError)
        -> TrustAnchors
    {
        guard let directory = configuration.trustAnchorsDirectory else { return TrustAnchors() }
        do {
            return try TrustAnchors.load(directory: directory)
        } catch {
            throw ConfigurationError(variable: "PASSKEY_TRUST_ANCHORS_DIR", problem: "\(error)")
        }
    }
}
