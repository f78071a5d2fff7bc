package import Foundation
package import PasskeyDomain

/// Why the support desk could not issue a code.
package enum OperatorRecoveryCodeError: Error, Hashable, Sendable {
    case invalidEmail
    case unknownEmail
    /// (v4) No account with this ID (the API's 404).
    case unknownAccount
    case unavailable
    case internalFailure(cause: FailureCause)
}

/// `passkey-server recovery-code --issued-by NAME EMAIL`: one single-use code for the account,
/// valid `operatorRecoveryCodeLifetime` (24 hours), next to the user's own set (which it does not
/// replace, and which it does not count in: it cannot satisfy `recovery-not-set-up`). It voids the
/// account's earlier unused operator codes in the same transaction: one is live at a time. The
/// `recoveryCodeIssued` notice (naming neither the issuer nor the code) is queued in it too; the
/// command passes `RequestOrigin.commandLine` as its origin.
package struct OperatorRecoveryCodeUseCase: Sendable {
    let store: any UnitOfWork
    let random: any RandomGenerator
    let digester: any SecretDigester
    let policy: PasskeyPolicy
    let notifier: SecurityNotifier
    let clock: any WallClock

    package init(
        store: any UnitOfWork, random: any RandomGenerator, digester: any SecretDigester,
        policy: PasskeyPolicy, notifier: SecurityNotifier = .off, clock: any WallClock
    ) {
        self.store = store
        self.random = random
        self.digester = digester
        self.policy = policy
        self.notifier = notifier
        self.clock = clock
    }

    /// The code (formatted, to be read to the user), the account and when the code expires.
    package func execute(email rawEmail: String, issuedBy: SupportAgentName, origin: RequestOrigin = .commandLine)
        async throws(OperatorRecoveryCodeError) -> (code: String, accountID: AccountID, expiresAt: Date)
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        let issue = prepare()
        let events = AccountEventMaker(random: random)
        let notifier = notifier
        let accountID = try await store.transaction(as: OperatorRecoveryCodeError.self) {
            tx async throws(RepositoryError) -> AccountID? in
            // The account's lock serialises concurrent issuing (and a concurrent replacement of the
            // user's set): each voids what the one before it stored, so one operator code stays live.
            guard let account = try await tx.accounts.lock(normalizedEmail: email.normalized) else { return nil }
            try await issue.store(for: account.id, in: tx)
            try await tx.events.record(
                events.event(
                    .recoveryCodeIssued(issuer: issuedBy), accountID: account.id, sessionID: nil, at: issue.now,
                    from: origin))
            try await tx.queue(notifier.mail(.recoveryCodeIssued, for: account, at: issue.now, from: origin))
            return account.id
        }
        guard let accountID else { throw .unknownEmail }
        return (issue.code.formatted, accountID, issue.expiresAt)
    }

    /// (v4) `POST /v1/operator/accounts/{accountID}/recovery-code`: the same code for the account,
    /// issued by an operator of the support desk, who is the event's actor (its notice comes from
    /// the desk, with no address). The code and when it expires; `.unknownAccount` when there is no
    /// such account (a malformed ID names none).
    package func execute(accountID: AccountID?, by actor: SupportAgentName)
        async throws(OperatorRecoveryCodeError) -> (code: String, expiresAt: Date)
    {
        guard let accountID else { throw .unknownAccount }
        let issue = prepare()
        let event = AccountEventMaker(random: random).event(
            .recoveryCodeIssued(issuer: actor), accountID: accountID, at: issue.now, by: actor)
        let notifier = notifier
        let found = try await store.transaction(as: OperatorRecoveryCodeError.self) {
            tx async throws(RepositoryError) -> Bool in
            guard let account = try await tx.accounts.lock(accountID) else { return false }
            try await issue.store(for: account.id, in: tx)
            try await tx.events.record(event)
            try await tx.queue(notifier.supportMail(.recoveryCodeIssued, for: account, at: issue.now))
            return true
        }
        guard found else { throw .unknownAccount }
        return (issue.code.formatted, issue.expiresAt)
    }

    /// A fresh code, its digest and its lifetime, made before the transaction.
    private func prepare() -> IssuedOperatorCode {
        let now = clock.now
        let code = RecoveryCode(bytes: random.bytes(count: RecoveryCode.byteCount))
        return IssuedOperatorCode(
            id: random.uuid(), code: code, digest: digester.sha256(Array(code.canonical.utf8)), now: now,
            expiresAt: now.addingTimeInterval(policy.operatorRecoveryCodeLifetime))
    }
}

/// An operator code about to be stored: only its digest goes to the database.
private struct IssuedOperatorCode: Sendable {
    let id: UUID
    let code: RecoveryCode
    let digest: [UInt8]
    let now: Date
    let expiresAt: Date

    /// Voids the account's earlier unused operator code and stores this one, in `tx` (which
    /// holds the account's lock).
    func store(for accountID: AccountID, in tx: any StoreTransaction) async throws(RepositoryError) {
        try await tx.recoveryCodes.deleteUnusedOperatorCodes(of: accountID)
        try await tx.recoveryCodes.insert([
            StoredRecoveryCode(
                id: id, accountID: accountID, digest: digest, source: .operator, createdAt: now, expiresAt: expiresAt)
        ])
    }
}
