package import Foundation
package import PasskeyDomain

/// A recovery code to store: only its digest.
package struct StoredRecoveryCode: Hashable, Sendable {
    package let id: UUID
    package let accountID: AccountID
    package let digest: [UInt8]
    package let source: RecoveryCodeSource
    package let createdAt: Date
    /// Operator codes only.
    package let expiresAt: Date?

    package init(
        id: UUID, accountID: AccountID, digest: [UInt8], source: RecoveryCodeSource, createdAt: Date,
        expiresAt: Date?
    ) {
        self.id = id
        self.accountID = accountID
        self.digest = digest
        self.source = source
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Recovery codes (digests only) and their single use.
package protocol RecoveryCodeRepository: Sendable {
    /// In one transaction: every earlier code of the account (its own and operator codes) stops
    /// working, and `codes` are stored, and `notice` is queued when the account's address is
    /// verified, and `event` (`recovery-codes.created`) is written. False when the account does
    /// not exist (then nothing is written).
    func replaceCodes(
        accountID: AccountID, with codes: [StoredRecoveryCode], notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> Bool

    /// In one transaction: voids (deletes) the unused operator codes of the account of
    /// `normalizedEmail` and stores the one `makeCode` builds, so one operator code is live at a
    /// time however many are issued at once (the account row lock serialises them); nil when no
    /// account has that email. The user's own set is not touched. `event` is the account event
    /// `recovery-code.issued` (`method` = `issuedBy`, never the code), written in the same
    /// transaction; `notice` is queued in it too when the account's address is verified.
    func addOperatorCode(
        normalizedEmail: String, issuedBy: SupportAgentName, notice: PendingNotice?, event: PendingAccountEvent,
        makeCode: @escaping @Sendable (AccountID) -> StoredRecoveryCode
    ) async throws(RepositoryError) -> AccountID?

    /// In one transaction, by one statement: marks the unused, unexpired code with this digest of
    /// the account of `normalizedEmail` used (of concurrent calls exactly one succeeds) and
    /// inserts the session `makeSession` builds for that account. When the code is the account's
    /// and was used less than `recentUseWindow` before `now` (by the winner of a race),
    /// `.usedJustNow`; otherwise (unknown email, wrong, expired or long-used code) `.notFound`.
    /// Then nothing changed. A redemption also queues, in its transaction, the notice `notice`
    /// makes for the kind of code used, when the account's address is verified. (v3) A redemption
    /// writes `events.success`; a `.notFound` of an existing account of `normalizedEmail` writes
    /// `events.failure` (an unknown email writes nothing; a `.usedJustNow` double submit neither).
    func redeem(
        normalizedEmail: String, codeDigest: [UInt8], now: Date, recentUseWindow: TimeInterval,
        notice: @escaping @Sendable (RecoveryCodeSource) -> PendingNotice?,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession, events: SignInEvents
    ) async throws(RepositoryError) -> RecoveryCodeRedemption
}
