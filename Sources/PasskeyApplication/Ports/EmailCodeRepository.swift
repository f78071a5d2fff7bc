package import Foundation
package import PasskeyDomain

/// Mailed codes (digests only) and the changes they confirm; each code's mail is queued in the
/// transaction that stores the code, each notice in the transaction of its change.
///
/// Every issue serialises on the recipient (its normalized address) for the whole transaction,
/// then counts the codes created for it within the last hour, so `sendsPerHour` holds under
/// concurrency and across instances. Every consumption locks the code's row, so of concurrent
/// uses of one code exactly one wins. `matches(codeID, storedDigest)` compares the presented
/// code with a live code in constant time; a false answer counts a wrong try, and the
/// `maximumTries`-th voids the code.
package protocol EmailCodeRepository: Sendable {
    /// `verify`: a code to the account's current address, unless it is verified already.
    func issueVerificationCode(
        accountID: AccountID, draft: EmailCodeDraft, sendsPerHour: Int,
        compose: @escaping @Sendable (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(RepositoryError) -> EmailCodeIssue

    /// `change`: a code to `newEmail`, unless another account has that address.
    func issueChangeCode(
        accountID: AccountID, newEmail: EmailAddress, draft: EmailCodeDraft, sendsPerHour: Int,
        compose: @escaping @Sendable (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(RepositoryError)
        -> EmailCodeIssue

    /// `sign-in`: a code to the account that has `email`, when one has it and the address is
    /// under the limit; otherwise nothing. The same statements run in every case (the answer and
    /// its time tell nothing about the address). `mails` holds the code mail in each language;
    /// the account's language picks one, sent to the address as the account stores it.
    func issueSignInCode(
        email: EmailAddress, draft: EmailCodeDraft, sendsPerHour: Int, mails: [MailLanguage: OutgoingMail]
    ) async throws(RepositoryError)

    /// `verify`: consumes the account's live code and marks the address verified, writing `event`
    /// (`email.verified`) in the same transaction.
    func confirmVerification(
        accountID: AccountID, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool, event: AccountEvent
    ) async throws(RepositoryError) -> EmailCodeConfirmation

    /// `change`: consumes the account's live code and makes its address the new, verified one;
    /// `notice` renders the mail to the old address, queued when that one was verified.
    func confirmChange(
        accountID: AccountID, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool,
        notice: (@Sendable (EmailAddress, MailLanguage, EmailAddress) -> OutgoingMail)?, event: AccountEvent
    ) async throws(RepositoryError) -> EmailCodeConfirmation

    /// `sign-in`: consumes the live code of the account of `normalizedEmail`, verifies the
    /// address (taking a never-verified account back), stores the session `makeSession` builds
    /// and queues `notice` to the now verified address. (v3) Writes `events.success` (and
    /// `reclaimed` for a take-back) with it; a wrong or missing code of an existing account writes
    /// `events.failure`; an unknown address writes nothing.
    func signIn(
        normalizedEmail: String, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession,
        notice: PendingNotice?, events: SignInEvents, reclaimed: PendingAccountEvent
    ) async throws(RepositoryError) -> EmailSignInRedemption
}
