package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `EmailCodeRepository` in memory, with the adapter's rules: the per-recipient hourly limit
/// counted over every code created within the hour, a new code voiding the earlier unused ones of
/// its purpose and account, wrong tries counted until `maximumTries` voids the code, expiry, and
/// single use. One lock stands for the adapter's transactions.
package final class InMemoryEmailCodeRepository: EmailCodeRepository {
    package struct Code: Sendable {
        package let draft: EmailCodeDraft
        package let accountID: AccountID
        package let recipient: EmailAddress
        package var failedTries = 0
        package var used = false
        package var voided = false
    }

    package struct Address: Sendable {
        package var email: EmailAddress
        package var language: MailLanguage
        package var verified: Bool
    }

    private struct State {
        var events: [AccountEvent] = []
        var accounts: [AccountID: (account: Account, address: Address)] = [:]
        var codes: [Code] = []
        var mails: [OutgoingMail] = []
        var sessions: [AuthenticationSession] = []
        var reclaimed: [AccountID] = []
    }

    private let state = Mutex(State())

    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    package init() {}

    package func register(
        _ account: Account, email: EmailAddress, language: MailLanguage = .english, verified: Bool = false
    ) {
        state.withLock {
            $0.accounts[account.id] = (account, Address(email: email, language: language, verified: verified))
        }
    }

    package func address(of id: AccountID) -> Address? { state.withLock { $0.accounts[id]?.address } }
    package var codes: [Code] { state.withLock { $0.codes } }
    package var mails: [OutgoingMail] { state.withLock { $0.mails } }
    package var sessions: [AuthenticationSession] { state.withLock { $0.sessions } }
    package var reclaimed: [AccountID] { state.withLock { $0.reclaimed } }

    package func issueVerificationCode(
        accountID: AccountID, draft: EmailCodeDraft, sendsPerHour: Int,
        compose: @escaping @Sendable (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(RepositoryError) -> EmailCodeIssue {
        state.withLock { state in
            guard let address = state.accounts[accountID]?.address else { return .accountGone }
            if address.verified { return .alreadyVerified }
            return Self.issue(
                draft, accountID: accountID, to: address.email, sendsPerHour: sendsPerHour,
                mail: compose(address.email, address.language), in: &state)
        }
    }

    package func issueChangeCode(
        accountID: AccountID, newEmail: EmailAddress, draft: EmailCodeDraft, sendsPerHour: Int,
        compose: @escaping @Sendable (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(RepositoryError) -> EmailCodeIssue {
        state.withLock { state in
            guard let address = state.accounts[accountID]?.address else { return .accountGone }
            if state.accounts.contains(where: { $0.key != accountID && $0.value.address.email == newEmail }) {
                return .emailTaken
            }
            return Self.issue(
                draft, accountID: accountID, to: newEmail, sendsPerHour: sendsPerHour,
                mail: compose(newEmail, address.language), in: &state)
        }
    }

    package func issueSignInCode(
        email: EmailAddress, draft: EmailCodeDraft, sendsPerHour: Int, mails: [MailLanguage: OutgoingMail]
    ) async throws(RepositoryError) {
        state.withLock { state in
            guard let (id, entry) = state.accounts.first(where: { $0.value.address.email == email }),
                let mail = mails[entry.address.language]
            else { return }
            _ = Self.issue(
                draft, accountID: id, to: entry.address.email, sendsPerHour: sendsPerHour, mail: mail, in: &state)
        }
    }

    package func confirmVerification(
        accountID: AccountID, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool, event: AccountEvent
    ) async throws(RepositoryError) -> EmailCodeConfirmation {
        state.withLock { state in
            guard let address = state.accounts[accountID]?.address else { return .accountGone }
            if address.verified { return .alreadyVerified }
            guard Self.consume(accountID, .verify, now, maximumTries, matches, in: &state) != nil else {
                return .wrongCode
            }
            state.accounts[accountID]?.address.verified = true
            state.events.append(event)
            return .confirmed
        }
    }

    package func confirmChange(
        accountID: AccountID, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool,
        notice: (@Sendable (EmailAddress, MailLanguage, EmailAddress) -> OutgoingMail)?, event: AccountEvent
    ) async throws(RepositoryError) -> EmailCodeConfirmation {
        state.withLock { state in
            guard let address = state.accounts[accountID]?.address else { return .accountGone }
            guard let index = Self.live(accountID, .change, now, in: state) else { return .wrongCode }
            let newEmail = state.codes[index].recipient
            guard matches(state.codes[index].draft.id, state.codes[index].draft.digest) else {
                Self.countWrongTry(index, maximumTries, in: &state)
                return .wrongCode
            }
            if state.accounts.contains(where: { $0.key != accountID && $0.value.address.email == newEmail }) {
                return .emailTaken
            }
            state.codes[index].used = true
            if address.verified, let notice { state.mails.append(notice(address.email, address.language, newEmail)) }
            state.accounts[accountID]?.address.email = newEmail
            state.accounts[accountID]?.address.verified = true
            state.events.append(event)
            return .confirmed
        }
    }

    package func signIn(
        normalizedEmail: String, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession,
        notice: PendingNotice?, events: SignInEvents, reclaimed reclaimedEvent: PendingAccountEvent
    ) async throws(RepositoryError) -> EmailSignInRedemption {
        state.withLock { state in
            guard
                let (id, entry) = state.accounts.first(where: { $0.value.address.email.normalized == normalizedEmail })
            else { return .invalid }  // an unknown address: no event
            guard Self.consume(id, .signIn, now, maximumTries, matches, in: &state) != nil else {
                state.events.append(events.failure.event(accountID: id))
                return .invalid
            }
            let reclaimed = !entry.address.verified
            if reclaimed {
                state.reclaimed.append(id)
                state.events.append(reclaimedEvent.event(accountID: id))
            }
            state.events.append(events.success.event(accountID: id))
            state.accounts[id]?.address.verified = true
            state.sessions.append(makeSession(entry.account))
            if let notice { state.mails.append(notice.mail(to: entry.address.email, language: entry.address.language)) }
            return .signedIn(account: entry.account, reclaimed: reclaimed)
        }
    }

    private static func issue(
        _ draft: EmailCodeDraft, accountID: AccountID, to recipient: EmailAddress, sendsPerHour: Int,
        mail: OutgoingMail, in state: inout State
    ) -> EmailCodeIssue {
        let hourAgo = draft.createdAt.addingTimeInterval(-3600)
        let recent = state.codes.filter { $0.recipient == recipient && $0.draft.createdAt > hourAgo }
        if recent.count >= sendsPerHour {
            let oldest = recent.map(\.draft.createdAt).min() ?? draft.createdAt
            return .limited(
                retryAfter: max(1, Int(oldest.addingTimeInterval(3600).timeIntervalSince(draft.createdAt).rounded(.up)))
            )
        }
        for index in state.codes.indices
        where state.codes[index].accountID == accountID && state.codes[index].draft.purpose == draft.purpose
            && !state.codes[index].used
        {
            state.codes[index].voided = true
        }
        state.codes.append(Code(draft: draft, accountID: accountID, recipient: recipient))
        state.mails.append(mail)
        return .issued
    }

    private static func live(_ accountID: AccountID, _ purpose: EmailCodePurpose, _ now: Date, in state: State) -> Int?
    {
        state.codes.lastIndex {
            $0.accountID == accountID && $0.draft.purpose == purpose && !$0.used && !$0.voided
                && $0.draft.expiresAt > now
        }
    }

    private static func countWrongTry(_ index: Int, _ maximumTries: Int, in state: inout State) {
        state.codes[index].failedTries += 1
        if state.codes[index].failedTries >= maximumTries { state.codes[index].voided = true }
    }

    private static func consume(
        _ accountID: AccountID, _ purpose: EmailCodePurpose, _ now: Date, _ maximumTries: Int,
        _ matches: (UUID, [UInt8]) -> Bool, in state: inout State
    ) -> Int? {
        guard let index = live(accountID, purpose, now, in: state) else { return nil }
        guard matches(state.codes[index].draft.id, state.codes[index].draft.digest) else {
            countWrongTry(index, maximumTries, in: &state)
            return nil
        }
        state.codes[index].used = true
        return index
    }
}
