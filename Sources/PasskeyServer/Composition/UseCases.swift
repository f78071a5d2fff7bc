internal import PasskeyApplication

/// The application factory: every use case, built once from the composition root's ports and the
/// configured policy, with the helpers they share (one `AttemptGate` for every kind of attempt, one
/// event maker, one notifier). `serve` wires its controllers from it and each command takes the one
/// use case it runs, so no use case is put together twice.
struct UseCases: Sendable {
    let policy: PasskeyPolicy
    /// (v4) The tokens' settings (`TOKEN_*`, `INTROSPECTION_CLIENTS`).
    let tokens: TokenSettings
    /// (v4) `OPERATOR_TOKEN`: the admin named `operator`.
    let operatorToken: String?
    private let d: Dependencies
    private let notifier: SecurityNotifier
    private let events: AccountEventMaker
    private let issuer: SessionIssuer
    private let limiter: AddressRateLimiter
    /// One gate for every kind of attempt: passwords and recovery codes share their limits.
    private let gate = AttemptGate()
    private let codeMaker: EmailCodeMaker
    private let composer: MailComposer
    private let failures: FailedSignInRecorder

    /// `unrecorded`: where a failed sign-in's event that could not be written is reported (the
    /// server's log; it never changes the 401).
    init(
        dependencies: Dependencies, policy: PasskeyPolicy, tokens: TokenSettings, operatorToken: String? = nil,
        unrecorded: @escaping @Sendable (RepositoryError) -> Void = { _ in }
    ) {
        let d = dependencies
        self.d = d
        self.policy = policy
        self.tokens = tokens
        self.operatorToken = operatorToken
        failures = FailedSignInRecorder(store: d.store, unrecorded: unrecorded)
        notifier = SecurityNotifier(policy: policy, random: d.random)
        events = AccountEventMaker(random: d.random)
        issuer = SessionIssuer(tokens: d.tokens, random: d.random, lifetime: policy.sessionLifetime)
        limiter = AddressRateLimiter(
            repository: d.rateLimits, limitPerMinute: policy.startsPerMinute, signupLimit: policy.signupsPerAddress,
            signupWindowSeconds: Int(policy.passwordFailureWindow))
        codeMaker = EmailCodeMaker(random: d.random, digester: d.digester)
        composer = MailComposer(relyingPartyName: policy.relyingPartyName)
    }

    private var signUpVerification: SignUpVerification {
        SignUpVerification(maker: codeMaker, composer: composer, policy: policy.mail)
    }

    // Sessions.
    var bearerAuthentication: BearerAuthenticationUseCase {
        BearerAuthenticationUseCase(sessions: d.sessions, tokens: d.tokens, clock: d.clock)
    }
    var recentSignIn: RecentSignInRequirement { RecentSignInRequirement(policy: policy, clock: d.clock) }

    // Password accounts.
    var passwordAccountRegistration: PasswordAccountRegistrationUseCase {
        PasswordAccountRegistrationUseCase(
            store: d.store, hasher: d.hasher, limiter: limiter, clock: d.clock, verification: signUpVerification,
            events: events)
    }
    var passwordAuthentication: PasswordAuthenticationUseCase {
        PasswordAuthenticationUseCase(
            accounts: d.accounts, sessions: d.sessions, failures: failures, rateLimits: d.rateLimits, hasher: d.hasher,
            issuer: issuer, policy: policy, clock: d.clock, gate: gate, events: events)
    }
    var signOut: SignOutUseCase { SignOutUseCase(store: d.store, clock: d.clock, events: events) }
    var passwordImport: PasswordImportUseCase { PasswordImportUseCase(store: d.store, clock: d.clock, events: events) }

    // Passkeys: add one, create an account with one, sign in with one.
    var passkeyRegistrationStart: PasskeyRegistrationStartUseCase {
        PasskeyRegistrationStartUseCase(
            accounts: d.accounts, registrations: d.passkeyRegistrations, limiter: limiter, random: d.random,
            policy: policy, clock: d.clock)
    }
    var passkeyRegistrationFinish: PasskeyRegistrationFinishUseCase {
        PasskeyRegistrationFinishUseCase(
            registrations: d.passkeyRegistrations, store: d.store, verifier: d.verifier, names: d.names,
            policy: policy, notifier: notifier, clock: d.clock, events: events)
    }
    var passkeyAccountRegistrationStart: PasskeyAccountRegistrationStartUseCase {
        PasskeyAccountRegistrationStartUseCase(
            registrations: d.accountRegistrations, limiter: limiter, random: d.random, policy: policy, clock: d.clock)
    }
    var passkeyAccountRegistrationFinish: PasskeyAccountRegistrationFinishUseCase {
        PasskeyAccountRegistrationFinishUseCase(
            registrations: d.accountRegistrations, store: d.store, verifier: d.verifier, names: d.names,
            issuer: issuer, limiter: limiter, policy: policy, clock: d.clock, verification: signUpVerification,
            events: events)
    }
    var passkeyAuthenticationStart: PasskeyAuthenticationStartUseCase {
        PasskeyAuthenticationStartUseCase(
            authentications: d.passkeyAuthentications, limiter: limiter, random: d.random, policy: policy,
            clock: d.clock)
    }
    var passkeyAuthenticationFinish: PasskeyAuthenticationFinishUseCase {
        PasskeyAuthenticationFinishUseCase(
            authentications: d.passkeyAuthentications, verifier: d.verifier, issuer: issuer, policy: policy,
            clock: d.clock, events: events)
    }

    // The signed-in account.
    var passkeyList: PasskeyListUseCase { PasskeyListUseCase(passkeys: d.passkeys) }
    var passkeyRename: PasskeyRenameUseCase { PasskeyRenameUseCase(store: d.store, clock: d.clock, events: events) }
    var passkeyDeletion: PasskeyDeletionUseCase {
        PasskeyDeletionUseCase(store: d.store, notifier: notifier, clock: d.clock, events: events)
    }
    var accountQuery: AccountQueryUseCase { AccountQueryUseCase(accounts: d.accounts) }
    var passwordRemoval: PasswordRemovalUseCase {
        PasswordRemovalUseCase(store: d.store, notifier: notifier, clock: d.clock, mail: policy.mail, events: events)
    }
    var passwordSet: PasswordSetUseCase {
        PasswordSetUseCase(store: d.store, hasher: d.hasher, notifier: notifier, clock: d.clock, events: events)
    }
    var accountDeletion: AccountDeletionUseCase {
        AccountDeletionUseCase(store: d.store, notifier: notifier, clock: d.clock, events: events)
    }
    var sessionList: SessionListUseCase { SessionListUseCase(sessions: d.sessions, clock: d.clock) }
    var sessionEnd: SessionEndUseCase { SessionEndUseCase(store: d.store, clock: d.clock, events: events) }
    var accountActivity: AccountActivityUseCase { AccountActivityUseCase(events: d.accountEvents) }

    // Recovery.
    var recoveryCodeSetCreation: RecoveryCodeSetCreationUseCase {
        RecoveryCodeSetCreationUseCase(
            store: d.store, random: d.random, digester: d.digester, notifier: notifier, clock: d.clock)
    }
    var recoveryAuthentication: RecoveryAuthenticationUseCase {
        RecoveryAuthenticationUseCase(
            store: d.store, failures: failures, rateLimits: d.rateLimits, digester: d.digester, issuer: issuer,
            policy: policy, notifier: notifier, clock: d.clock, gate: gate, events: events)
    }
    var operatorRecoveryCode: OperatorRecoveryCodeUseCase {
        OperatorRecoveryCodeUseCase(
            store: d.store, random: d.random, digester: d.digester, policy: policy, notifier: notifier,
            clock: d.clock)
    }

    // (v3) Email.
    var emailVerification: EmailVerificationUseCase {
        EmailVerificationUseCase(
            store: d.store, accounts: d.accounts, rateLimits: d.rateLimits, maker: codeMaker, composer: composer,
            policy: policy, clock: d.clock, gate: gate, limiter: limiter)
    }
    var emailChange: EmailChangeUseCase {
        EmailChangeUseCase(
            store: d.store, accounts: d.accounts, rateLimits: d.rateLimits, maker: codeMaker, composer: composer,
            notifier: notifier, policy: policy, clock: d.clock, gate: gate, limiter: limiter)
    }
    var recoveryEmailRequest: RecoveryEmailRequestUseCase {
        RecoveryEmailRequestUseCase(
            store: d.store, limiter: limiter, maker: codeMaker, composer: composer, policy: policy, clock: d.clock)
    }
    var recoveryEmailAuthentication: RecoveryEmailAuthenticationUseCase {
        RecoveryEmailAuthenticationUseCase(
            store: d.store, rateLimits: d.rateLimits, maker: codeMaker, issuer: issuer, notifier: notifier,
            policy: policy, clock: d.clock, gate: gate)
    }

    // (v3) Adoption.
    var adoptionFigures: AdoptionFiguresUseCase { AdoptionFiguresUseCase(adoption: d.adoption, clock: d.clock) }
    var accountStagesGauge: AccountStagesGauge { AccountStagesGauge(adoption: d.adoption, clock: d.clock) }

    // (v4) The support desk's operators.
    var operatorAuthorization: OperatorAuthorizationUseCase {
        OperatorAuthorizationUseCase(operators: d.operators, configuredToken: operatorToken, digester: d.digester)
    }
    var operatorAddition: OperatorAdditionUseCase {
        OperatorAdditionUseCase(operators: d.operators, random: d.random, digester: d.digester, clock: d.clock)
    }
    var supportAccountLookup: SupportAccountLookupUseCase {
        SupportAccountLookupUseCase(store: d.store, events: d.accountEvents, clock: d.clock)
    }
    var accountLock: AccountLockUseCase {
        AccountLockUseCase(store: d.store, notifier: notifier, clock: d.clock, events: events)
    }
    var supportAccountActions: SupportAccountActionsUseCase {
        SupportAccountActionsUseCase(store: d.store, notifier: notifier, clock: d.clock, events: events)
    }
    var operatorList: OperatorListUseCase { OperatorListUseCase(operators: d.operators) }
    var operatorRemoval: OperatorRemovalUseCase { OperatorRemovalUseCase(operators: d.operators) }

    // (v4) The event log (webhooks, the events API).
    var eventFeed: EventFeedUseCase { EventFeedUseCase(log: d.eventLog) }
    var webhookRegistration: WebhookRegistrationUseCase {
        WebhookRegistrationUseCase(webhooks: d.webhooks, sealer: d.sealer, random: d.random, clock: d.clock)
    }
    var webhookList: WebhookListUseCase { WebhookListUseCase(webhooks: d.webhooks) }
    var webhookRemoval: WebhookRemovalUseCase { WebhookRemovalUseCase(webhooks: d.webhooks) }
    var webhookSecretRotation: WebhookSecretRotationUseCase {
        WebhookSecretRotationUseCase(webhooks: d.webhooks, sealer: d.sealer, random: d.random, clock: d.clock)
    }
    /// The background sender; nil without `DATA_ENCRYPTION_KEY` (no secret could sign). Its lease
    /// outlasts an attempt (`WEBHOOK_TIMEOUT_SECONDS`) with a minute to settle it.
    func webhookSender(timeoutSeconds: Int, maxAttempts: Int) -> WebhookSender? {
        d.sealer.map {
            WebhookSender(
                deliveries: d.webhookDeliveries, transport: d.webhookTransport, format: d.webhookFormat, sealer: $0,
                clock: d.clock, random: d.random, maxAttempts: maxAttempts, lease: Double(2 * timeoutSeconds + 60))
        }
    }

    // (v4) Tokens for the product's other services.
    var serviceToken: ServiceTokenUseCase {
        ServiceTokenUseCase(
            sessions: d.tokenSessions, tokens: d.tokens, keys: d.signingKeyCache, format: d.tokenFormat,
            policy: tokens.policy, clock: d.clock, random: d.random, rotation: signingKeyRotation)
    }
    var keySet: KeySetUseCase {
        KeySetUseCase(repository: d.sealer == nil ? nil : d.signingKeys, policy: tokens.policy, clock: d.clock)
    }
    var introspection: IntrospectionUseCase {
        IntrospectionUseCase(
            sessions: d.tokenSessions, keys: d.signingKeyCache, format: d.tokenFormat, tokens: d.tokens,
            digester: d.digester,
            policy: tokens.policy, clock: d.clock)
    }
    var introspectionClients: IntrospectionClients {
        IntrospectionClients(tokens.introspectionClients, digester: d.digester)
    }
    /// Nil while tokens are off.
    var signingKeyRotation: SigningKeyRotationUseCase? {
        d.sealer.map {
            SigningKeyRotationUseCase(
                store: d.store, format: d.tokenFormat, sealer: $0, policy: tokens.policy, clock: d.clock,
                random: d.random)
        }
    }
}
