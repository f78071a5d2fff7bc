package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `RecoveryCodeRepository` in memory for unit tests of use cases: codes by digest, each used
/// once, operator codes expiring, sessions recorded. Accounts are registered by email first.
package final class InMemoryRecoveryCodeRepository: RecoveryCodeRepository {
    private struct State {
        var events: [AccountEvent] = []
        var accounts: [String: Account] = [:]
        var codes: [StoredRecoveryCode] = []
        var used: [UUID: Date] = [:]
        var issuers: [SupportAgentName] = []
        var sessions: [AuthenticationSession] = []
        var failNext: RepositoryError?
        var notices: [QueuedNotice] = []
    }

    private let state = Mutex(State())

    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    package init() {}

    package func register(_ account: Account, normalizedEmail: String) {
        state.withLock { $0.accounts[normalizedEmail] = account }
    }

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }
    package var sessions: [AuthenticationSession] { state.withLock { $0.sessions } }
    package var storedCodes: [StoredRecoveryCode] { state.withLock { $0.codes } }
    /// Who issued each operator code, in order (the future `recovery-code.issued` events).
    package var issuers: [SupportAgentName] { state.withLock { $0.issuers } }

    /// The notices queued with changes that went through, in order.
    package var queuedNotices: [QueuedNotice] { state.withLock { $0.notices } }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func replaceCodes(
        accountID: AccountID, with codes: [StoredRecoveryCode], notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            guard state.accounts.values.contains(where: { $0.id == accountID }) else { return false }
            state.codes.removeAll { $0.accountID == accountID }
            state.codes += codes
            if let notice { state.notices.append(QueuedNotice(accountID: accountID, pending: notice)) }
            state.events.append(event)
            return true
        }
    }

    package func addOperatorCode(
        normalizedEmail: String, issuedBy: SupportAgentName, notice: PendingNotice?, event: PendingAccountEvent,
        makeCode: @escaping @Sendable (AccountID) -> StoredRecoveryCode
    ) async throws(RepositoryError) -> AccountID? {
        try state.withLock { (state) throws(RepositoryError) -> AccountID? in
            try checkFailure(&state)
            guard let account = state.accounts[normalizedEmail] else { return nil }
            state.codes.removeAll { [used = state.used] code in
                code.accountID == account.id && code.source == .operator && used[code.id] == nil
            }
            state.codes.append(makeCode(account.id))
            state.issuers.append(issuedBy)
            state.events.append(event.event(accountID: account.id))
            if let notice { state.notices.append(QueuedNotice(accountID: account.id, pending: notice)) }
            return account.id
        }
    }

    package func redeem(
        normalizedEmail: String, codeDigest: [UInt8], now: Date, recentUseWindow: TimeInterval,
        notice: @escaping @Sendable (RecoveryCodeSource) -> PendingNotice?,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession, events: SignInEvents
    ) async throws(RepositoryError) -> RecoveryCodeRedemption {
        try state.withLock { (state) throws(RepositoryError) -> RecoveryCodeRedemption in
            try checkFailure(&state)
            guard let account = state.accounts[normalizedEmail] else { return .notFound }  // unknown: no event
            guard
                let code = state.codes.first(where: {
                    $0.accountID == account.id && $0.digest == codeDigest && ($0.expiresAt.map { $0 > now } ?? true)
                })
            else {
                state.events.append(events.failure.event(accountID: account.id))
                return .notFound
            }
            if let usedAt = state.used[code.id] {
                if usedAt > now.addingTimeInterval(-max(0, recentUseWindow)) { return .usedJustNow }
                state.events.append(events.failure.event(accountID: account.id))
                return .notFound
            }
            state.used[code.id] = now
            state.events.append(events.success.event(accountID: account.id))
            state.sessions.append(makeSession(account))
            if let notice = notice(code.source) {
                state.notices.append(QueuedNotice(accountID: account.id, pending: notice))
            }
            return .redeemed(account: account, source: code.source)
        }
    }
}
