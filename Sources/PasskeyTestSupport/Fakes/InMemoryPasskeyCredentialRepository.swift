package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `PasskeyCredentialRepository` in memory for unit tests of use cases (`seed` stores a passkey):
/// lists oldest first, and deletion refused for an account's last way in (its only passkey,
/// unless `setHasPassword` says it has a password). Sessions are not modelled: `keptSessions`
/// records which session each deletion was told to keep. `failNext` makes the next call throw.
package final class InMemoryPasskeyCredentialRepository: PasskeyCredentialRepository {
    private struct State {
        var events: [AccountEvent] = []
        var credentials: [PasskeyCredential] = []
        var accountsWithPassword: Set<AccountID> = []
        var keptSessions: [SessionID] = []
        var failNext: RepositoryError?
        var notices: [QueuedNotice] = []
    }

    private let state = Mutex(State())

    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// Whether `deleteCredential` finds a password on the account.
    package func setHasPassword(_ hasPassword: Bool, for accountID: AccountID) {
        state.withLock {
            if hasPassword {
                $0.accountsWithPassword.insert(accountID)
            } else {
                $0.accountsWithPassword.remove(accountID)
            }
        }
    }

    /// A passkey registered before (adding one is `PasskeyRegistrationRepository`'s).
    package func seed(_ credential: PasskeyCredential) { state.withLock { $0.credentials.append(credential) } }

    /// Every stored passkey, in the order stored.
    package var all: [PasskeyCredential] { state.withLock { $0.credentials } }

    /// The `keepingSession` of every deletion that went through, in order.
    package var keptSessions: [SessionID] { state.withLock { $0.keptSessions } }

    /// The notices queued with changes that went through, in order.
    package var queuedNotices: [QueuedNotice] { state.withLock { $0.notices } }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func credentials(accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential] {
        try state.withLock { (state) throws(RepositoryError) -> [PasskeyCredential] in
            try checkFailure(&state)
            // A stable sort: equal creation times keep the order stored.
            return state.credentials.filter { $0.accountID == accountID }.sorted { $0.createdAt < $1.createdAt }
        }
    }

    package func renameCredential(id: CredentialID, accountID: AccountID, to name: PasskeyName, event: AccountEvent)
        async throws(RepositoryError) -> PasskeyCredential?
    {
        try state.withLock { (state) throws(RepositoryError) -> PasskeyCredential? in
            try checkFailure(&state)
            guard let index = state.credentials.firstIndex(where: { $0.id == id && $0.accountID == accountID }) else {
                return nil
            }
            state.credentials[index].name = name
            state.events.append(event)
            return state.credentials[index]
        }
    }

    package func deleteCredential(
        id: CredentialID, accountID: AccountID, keepingSession: SessionID, notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> PasskeyDeletionOutcome {
        try state.withLock { (state) throws(RepositoryError) -> PasskeyDeletionOutcome in
            try checkFailure(&state)
            guard let index = state.credentials.firstIndex(where: { $0.id == id && $0.accountID == accountID }) else {
                return .notFound
            }
            let owned = state.credentials.filter { $0.accountID == accountID }.count
            if owned <= 1, !state.accountsWithPassword.contains(accountID) { return .lastCredential }
            state.credentials.remove(at: index)
            state.keptSessions.append(keepingSession)
            if let notice { state.notices.append(QueuedNotice(accountID: accountID, pending: notice)) }
            state.events.append(event)
            return .deleted
        }
    }
}
