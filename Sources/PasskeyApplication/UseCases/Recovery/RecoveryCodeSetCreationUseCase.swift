package import Foundation
internal import PasskeyDomain

/// A new set of recovery codes, shown once.
package struct RecoveryCodeSet: Sendable {
    /// `XXXX-XXXX-XXXX-XXXX`, in the order generated.
    package let codes: [String]
    package let createdAt: Date
}

/// `POST /v1/account/recovery-codes`: needs a recent sign-in (it takes a `RecentSession`); 10 new codes replace every
/// earlier code of the account in one transaction; only their SHA-256 digests are stored. The
/// `recoveryCodesCreated` notice (which holds none of the codes) is queued in that transaction.
package struct RecoveryCodeSetCreationUseCase: Sendable {
    package static let codesPerSet = 10

    let recoveryCodes: any RecoveryCodeRepository
    let random: any RandomGenerator
    let digester: any SecretDigester
    let notifier: SecurityNotifier
    let clock: any WallClock

    package init(
        recoveryCodes: any RecoveryCodeRepository, random: any RandomGenerator, digester: any SecretDigester,
        notifier: SecurityNotifier = .off, clock: any WallClock
    ) {
        self.recoveryCodes = recoveryCodes
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
        let notice = notifier.notice(.recoveryCodesCreated, at: now, from: origin)
        let replaced = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await recoveryCodes.replaceCodes(
                accountID: session.account.id, with: stored, notice: notice,
                event: AccountEventMaker(random: random).event(
                    .recoveryCodesCreated, accountID: session.account.id, sessionID: session.session.id, at: now,
                    from: origin))
        }
        guard replaced else { throw .notFound }
        return RecoveryCodeSet(codes: codes.map(\.formatted), createdAt: now)
    }
}
