internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

// Domain values as the contract's response bodies.

extension SessionResponseBody {
    init(_ issued: IssuedSession) {
        self.init(
            accessToken: issued.accessToken, expiresAt: issued.expiresAt, accountID: issued.account.id.description,
            displayName: issued.account.displayName.value, method: issued.method.rawValue)
    }
}

extension PasskeyResponseBody {
    init(_ credential: PasskeyCredential) {
        self.init(
            credentialID: Base64URL.encode(credential.id.bytes), name: credential.name.value,
            createdAt: credential.createdAt, lastUsedAt: credential.lastUsedAt,
            backupEligible: credential.backupEligible, backupState: credential.backupState,
            transports: credential.transports, aaguid: credential.aaguid.description,
            attestationFormat: credential.attestationFormat)
    }
}

extension AccountResponseBody {
    init(_ summary: AccountSummary) {
        self.init(
            accountID: summary.account.id.description, displayName: summary.account.displayName.value,
            email: summary.email.value, hasPassword: summary.hasPassword,
            passkeys: summary.passkeys.map(PasskeyResponseBody.init),
            recoveryCodesRemaining: summary.recoveryCodesRemaining, emailVerified: summary.emailVerified,
            userHandle: Base64URL.encode(UserHandle(accountID: summary.account.id).bytes))
    }
}

extension AccountEventResponseBody {
    init(_ event: AccountEvent) {
        self.init(
            eventID: event.id.description, kind: event.kind.rawValue, occurredAt: event.occurredAt,
            clientAddress: event.clientAddress, userAgent: event.userAgent, method: event.activity.method,
            credentialID: event.activity.credentialID.map { Base64URL.encode($0.bytes) },
            sessionID: event.sessionID?.description, actor: event.actor?.value, reason: event.activity.reason?.value)
    }
}

extension EventPayloadBody {
    /// (v4) A logged event as webhooks send it and the events API serves it.
    init(_ event: LoggedEvent) {
        self.init(
            type: event.kind, timestamp: event.occurredAt,
            data: EventDataBody(
                eventID: event.id.description, kind: event.kind, occurredAt: event.occurredAt,
                clientAddress: event.clientAddress, userAgent: event.userAgent, method: event.method,
                credentialID: event.credentialID.map { Base64URL.encode($0.bytes) },
                sessionID: event.sessionID?.description, accountID: event.accountID.description, actor: event.actor,
                reason: event.reason, from: event.stageChange?.from.rawValue, to: event.stageChange?.to.rawValue))
    }
}

extension AdoptionResponseBody {
    init(_ figures: AdoptionFigures) {
        let a = figures.accounts
        self.init(
            generatedAt: figures.generatedAt,
            accounts: Accounts(
                total: a.total, passwordOnly: a.passwordOnly, passwordAndPasskey: a.passwordAndPasskey,
                passkeyOnly: a.passkeyOnly, emailVerified: a.emailVerified),
            days: figures.days.map { day in
                Day(
                    date: day.date.description,
                    signIns: SignIns(
                        password: day.signIns.password, passkey: day.signIns.passkey,
                        recovery: day.signIns.recovery, email: day.signIns.email),
                    passkeysAdded: PasskeysAdded(
                        modal: day.passkeysAdded.modal, conditional: day.passkeysAdded.conditional,
                        signUp: day.passkeysAdded.signUp),
                    accountsCreated: AccountsCreated(
                        password: day.accountsCreated.password, passkey: day.accountsCreated.passkey),
                    passwordsRemoved: day.passwordsRemoved)
            },
            upgrade: Upgrade(
                passwordSignIns: figures.upgrade.passwordSignIns, followedByPasskey: figures.upgrade.followedByPasskey,
                rate: figures.upgrade.rate))
    }
}

extension AuthenticationOptionsResponseBody {
    init(_ started: PasskeyAuthenticationStart) {
        let options = started.options
        self.init(
            challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
            challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.expiresAt,
            publicKey: RequestOptionsJSON(options))
    }
}

extension RegistrationOptionsResponseBody {
    init(_ started: PasskeyRegistrationStart) {
        let options = started.options
        self.init(
            challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
            relyingPartyName: options.relyingPartyName, userID: Base64URL.encode(options.userHandle.bytes),
            userName: options.userName, displayName: options.userDisplayName,
            challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.expiresAt,
            mode: started.mode.rawValue, publicKey: CreationOptionsJSON(options))
    }
}

extension AccountRegistrationOptionsResponseBody {
    init(_ started: PasskeyAccountRegistrationStart) {
        let options = started.options
        self.init(
            registrationID: started.registration.id.description, relyingPartyID: options.relyingPartyID,
            userID: Base64URL.encode(options.userHandle.bytes), challenge: Base64URL.encode(options.challenge.bytes),
            expiresAt: started.registration.expiresAt, publicKey: CreationOptionsJSON(options))
    }
}

extension AccountCreatedResponseBody {
    init(_ account: Account) {
        self.init(accountID: account.id.description, displayName: account.displayName.value)
    }
}

extension RecoveryCodesResponseBody {
    init(_ set: RecoveryCodeSet) {
        self.init(codes: set.codes, createdAt: set.createdAt)
    }
}

extension SessionInfoResponseBody {
    init(_ session: AuthenticationSession, current: Bool) {
        self.init(
            sessionID: session.id.description, method: session.method.rawValue, createdAt: session.createdAt,
            expiresAt: session.expiresAt, current: current,
            credentialID: session.credentialID.map { Base64URL.encode($0.bytes) })
    }
}

extension WebhookResponseBody {
    /// (v4) An endpoint as operators see it; `secret` only in the registration's answer.
    init(_ webhook: Webhook, secret: WebhookSecret? = nil) {
        self.init(
            webhookID: webhook.id.description, url: webhook.url.value, events: webhook.events,
            description: webhook.description.value, createdAt: webhook.createdAt, pending: webhook.pending,
            abandoned: webhook.abandoned, lastDeliveredAt: webhook.lastDeliveredAt, secret: secret?.text)
    }
}
