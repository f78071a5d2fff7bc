package import Foundation
package import PasskeyDomain

/// Why the support desk could not issue a code.
package enum OperatorRecoveryCodeError: Error, Hashable, Sendable {
    case invalidEmail
    case unknownEmail
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
        let now = clock.now
        let code = RecoveryCode(bytes: random.bytes(count: RecoveryCode.byteCount))
        let digest = digester.sha256(Array(code.canonical.utf8))
        let expiresAt = now.addingTimeInterval(policy.operatorRecoveryCodeLifetime)
        let id = random.uuid()
        let events = AccountEventMaker(random: random)
        let accountID = try await store.transaction(as: OperatorRecoveryCodeError.self) {
            tx async throws(RepositoryError) -> AccountID? in
            // The account's lock serialises concurrent issuing (and a concurrent replacement of the
            // user's set): each voids what the one before it stored, so one operator code stays live.
            guard let account = try await tx.accounts.lock(normalizedEmail: email.normalized) else { return nil }
            try await tx.recoveryCodes.deleteUnusedOperatorCodes(of: account.id)
            try await tx.recoveryCodes.insert([
                StoredRecoveryCode(
                    id: id, accountID: account.id, digest: digest, source: .operator, createdAt: now,
                    expiresAt: expiresAt)
            ])
            try await tx.events.record(
                events.event(
                    .recoveryCodeIssued(issuer: issuedBy), accountID: account.id, sessionID: nil, at: now,
                    from: origin))
            try await tx.queue(notifier.mail(.recoveryCodeIssued, for: account, at: now, from: origin))
            return account.id
        }
        guard let accountID else { throw .unknownEmail }
        return (code.formatted, accountID, expiresAt)
    }
}
