internal import PasskeyApplication
internal import PasskeyEventLoop

/// What the composition root built, as the application sees it: every port, and the few
/// handles the server's runtime needs. `PasskeyServerApp` and the commands work from this and
/// never name an adapter.
struct Dependencies: Sendable {
    /// Every change, with its events and mails, in one transaction.
    let store: any UnitOfWork
    let accounts: any AccountRepository
    let passkeys: any PasskeyCredentialRepository
    let passkeyRegistrations: any PasskeyRegistrationRepository
    let passkeyAuthentications: any PasskeyAuthenticationRepository
    let accountRegistrations: any AccountRegistrationRepository
    let sessions: any SessionRepository
    let rateLimits: any RateLimitRepository
    /// (v3) Reading the activity log.
    let accountEvents: any AccountEventRepository
    let maintenance: any MaintenanceRepository
    /// (v3) The operators' adoption figures.
    let adoption: any AdoptionRepository
    /// (v3) The outbox as the background sender sees it, and the transport (nil: mail off).
    let mailOutbox: any MailOutboxRepository
    let mailTransport: (any MailTransport)?
    let verifier: any CredentialVerifier
    let hasher: any PasswordHasher
    let tokens: any SessionTokenGenerator
    let random: any RandomGenerator
    let digester: any SecretDigester
    let names: any AuthenticatorNames
    let clock: any WallClock
    /// (v4) The token signing keys and sessions as the tokens read them, the token format, and
    /// the sealer of `DATA_ENCRYPTION_KEY` with this instance's key cache (both nil: tokens off).
    let signingKeys: any SigningKeyRepository
    let tokenSessions: any TokenSessionRepository
    let tokenFormat: any AccessTokenFormat
    let sealer: (any SecretSealer)?
    let signingKeyCache: SigningKeyCache?
    /// (v4) The event log the webhooks send and the events API serves.
    let eventLog: any EventLogRepository
    /// (v4) The webhook endpoints, their deliveries as the sender sees them, the HTTP transport
    /// (`WEBHOOK_TIMEOUT_SECONDS`) and the Standard Webhooks request format.
    let webhooks: any WebhookRepository
    let webhookDeliveries: any WebhookDeliveryRepository
    let webhookTransport: any WebhookTransport
    let webhookFormat: any WebhookMessageFormat
    /// (v4) The support desk's named operators.
    let operators: any OperatorRepository
    /// The event loops (`EVENT_LOOPS`): each runs an HTTP daemon, the requests it reads and its
    /// share of the database pool.
    let loops: EventLoopGroup
    /// The password-hashing threads' load, for `/metrics`.
    let passwordHashingLoad: @Sendable () -> PasswordHashingLoad
}

/// Jobs running and waiting on the password-hashing threads, and how many were refused.
struct PasswordHashingLoad: Sendable {
    var running: Int
    var waiting: Int
    var refused: Int
}
