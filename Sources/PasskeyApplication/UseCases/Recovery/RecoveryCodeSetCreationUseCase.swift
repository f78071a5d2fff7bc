package import Foundation
package import PasskeyDomain

/// A new set of recovery codes, shown once.
package struct RecoveryCodeSet: Sendable {
    package let accountID: AccountID
    /// `XXXX-XXXX-XXXX-XXXX`, in the order generated.
    package let codes: [String]
    package let createdAt: Date
}

/// `POST /v1/account/recovery-codes`: needs a recent sign-in (it takes a `RecentSession`); 10 new codes replace every
/// earlier code of the account (its set and operator codes) in one transaction; only their SHA-256 digests are stored. The
/// `recoveryCodesCreated` notice (which holds none of the codes) is queued in that transaction.
package struct RecoveryCodeSetCreationUseCase: Sendable {
    package static let codesPerSet = 10

    let store: any UnitOfWork
    let random: any RandomGenerator
    let digester: any SecretDigester
    let notifier: SecurityNotifier
    let clock: any WallClock

    package init(
        store: any UnitOfWork, random: any RandomGenerator, digester: any SecretDigester,
        notifier: SecurityNotifier = .off, clock: any WallClock
    ) {
        self.store = store
        self.random = random
        self.digester = digester
        self.notifier = notifier
        self.clock = clock
    }

    package func execute(session: RecentSession, origin: RequestOrigin) async throws(AccountManagementError)
        -> RecoveryCodeSet
    {
        let now = clock.now
        let codes = (0..<Self.codesPerSet).map { _ in RecoveryCode(bytes: random.bytes(count: RecoveryCode.byteCount)) }
        let stored = codes.map { code in
            StoredRecoveryCode(
                id: random.uuid(), accountID: session.account.id, digest: digester.sha256(Array(code.canonical.utf8)),
                source: .user, createdAt: now, expiresAt: nil)
        }
        let event = AccountEventMaker(random: random).event(
            .recoveryCodesCreated, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let replaced = try await store.transaction(as: AccountManagementError.self) {
            tx async throws(RepositoryError) in
            // The account's lock serialises two concurrent replacements (the later set wins whole)
            // and operator codes issued meanwhile.
            guard let account = try await tx.accounts.lock(session.account.id) else { return false }
            try await tx.requireLive(session.session, at: now)
            try await tx.recoveryCodes.deleteAll(of: account.id)
            try await tx.recoveryCodes.insert(stored)
            try await tx.queue(notifier.mail(.recoveryCodesCreated, for: account, at: now, from: origin))
            try await tx.events.record(event)
            return true
        }
        guard replaced else { throw .notFound }
        return RecoveryCodeSet(accountID: session.account.id, codes: codes.map(\.formatted), createdAt: now)
    }
}
