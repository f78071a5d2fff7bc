internal import PasskeyApplication
internal import PasskeyDomain

// The outcomes an operator should see in the log, each with the line it writes (through
// `RequestContext.execute`, with the request's ID, route and client). None holds a secret.

extension PasswordAuthentication: Audited {
    /// The sign-in stands; the hash is upgraded at the next one. Worth an operator's look.
    var audit: AuditEntry? {
        rehashFailure.map { AuditEntry(.warning, [.event: "password_rehash_failed", .cause: "\($0)"]) }
    }
}

extension RecoveryAuthentication: Audited {
    /// Every recovery sign-in is worth an operator's look; never with the code.
    var audit: AuditEntry? {
        AuditEntry(
            .warning,
            [.event: "recovery_sign_in", .accountID: session.account.id.description, .source: source.rawValue])
    }
}

extension EmailRecoverySignIn: Audited {
    /// Every email sign-in is recovery, worth an operator's look; never with the code.
    var audit: AuditEntry? {
        AuditEntry(
            .warning,
            [
                .event: "email_sign_in", .accountID: session.account.id.description,
                .reclaimed: reclaimed ? "true" : "false",
            ])
    }
}

extension VerifiedEmail: Audited {
    var audit: AuditEntry? {
        AuditEntry(.info, [.event: "email_verified", .accountID: summary.account.id.description])
    }
}

extension ChangedEmail: Audited {
    var audit: AuditEntry? {
        AuditEntry(.warning, [.event: "email_changed", .accountID: summary.account.id.description])
    }
}

extension RecoveryCodeSet: Audited {
    var audit: AuditEntry? { AuditEntry(.info, [.event: "recovery_codes_created", .accountID: accountID.description]) }
}

extension PasswordChange: Audited {
    var audit: AuditEntry? { AuditEntry(.info, [.event: "password_set", .accountID: accountID.description]) }
}

extension AccountDeletion: Audited {
    var audit: AuditEntry? { AuditEntry(.warning, [.event: "account_deleted", .accountID: accountID.description]) }
}

// The ceremonies' successful outcomes: the reason their line carries, and a warning.

extension PasskeyRegistrationStart: CeremonyOutcome {
    var ceremonyReason: String? { mode.rawValue }
}

extension PasskeyRegistrationFinish: CeremonyOutcome {
    var ceremonyReason: String? { mode.rawValue }
}

extension RecoveryAuthentication: CeremonyOutcome {
    var ceremonyReason: String? { source.rawValue }
}

extension PasskeyAuthenticationFinish: CeremonyOutcome {
    /// Accepted (a synced passkey), but worth an operator's look: a possible clone.
    var ceremonyWarning: CeremonyWarning? {
        cloneWarning
            ? CeremonyWarning(
                step: "authentication.verifyAssertion", reason: "signCountNotIncreasedSynced",
                metricReason: "cloneWarning")
            : nil
    }
}

extension PasswordAuthentication: CeremonyOutcome {}
extension PasskeyAuthenticationStart: CeremonyOutcome {}
extension PasskeyAccountRegistrationStart: CeremonyOutcome {}
extension PasskeyAccountRegistrationFinish: CeremonyOutcome {}
