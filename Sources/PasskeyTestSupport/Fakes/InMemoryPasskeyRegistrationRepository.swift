package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `PasskeyRegistrationRepository` in memory for unit tests of use cases, with the PostgreSQL
/// adapter's rules: a challenge is consumed at most once, only unexpired (`expiresAt > now`) and
/// only by its own account (another account's attempt leaves it untouched); credential IDs are
/// unique across accounts (`seed` stands for a passkey registered before), and an account holds at
/// most `limit` of them (seeded ones count). `failNext` makes the
/// next call throw; `failNextInsert` only the next `addCredential`.
package final class InMemoryPasskeyRegistrationRepository: PasskeyRegistrationRepository {
    private struct State {
        var events: [AccountEvent] = []
        var challenges: [ChallengeID: PasskeyRegistrationChallenge] = [:]
        var credentials: [PasskeyCredential] = []
        var failNext: RepositoryError?
        var failNextInsert: RepositoryError?
        var notices: [QueuedNotice] = []
    }

    private let state = Mutex(State())

    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    package func failNextInsert(_ error: RepositoryError) { state.withLock { $0.failNextInsert = error } }

    /// The notices queued with changes that went through, in order.
    package var queuedNotices: [QueuedNotice] { state.withLock { $0.notices } }

    /// A passkey registered before (by anyone), so its ID is taken.
    package func seed(_ credential: PasskeyCredential) { state.withLock { $0.credentials.append(credential) } }

    /// A stored challenge as it stands now (`consumedAt` set once consumed).
    package func challenge(id: ChallengeID) -> PasskeyRegistrationChallenge? { state.withLock { $0.challenges[id] } }

    /// Every stored challenge.
    package var challenges: [PasskeyRegistrationChallenge] { state.withLock { Array($0.challenges.values) } }

    /// Every stored passkey (seeded or added), in the order stored.
    package var credentials: [PasskeyCredential] { state.withLock { $0.credentials } }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func saveRegistrationChallenge(_ challenge: PasskeyRegistrationChallenge) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.challenges[challenge.id] = challenge
        }
    }

    package func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?
    {
        try state.withLock { (state) throws(RepositoryError) -> PasskeyRegistrationChallenge? in
            try checkFailure(&state)
            guard var challenge = state.challenges[id], challenge.accountID == accountID,
                challenge.consumedAt == nil, challenge.expiresAt > now
            else { return nil }
            challenge.consumedAt = now
            state.challenges[id] = challenge
            return challenge
        }
    }

    @discardableResult
    package func addCredential(_ credential: PasskeyCredential, limit: Int, notice: PendingNotice?, event: AccountEvent)
        async throws(RepositoryError) -> CredentialAddition
    {
        try state.withLock { (state) throws(RepositoryError) -> CredentialAddition in
            try checkFailure(&state)
            if let error = state.failNextInsert {
                state.failNextInsert = nil
                throw error
            }
            guard !state.credentials.contains(where: { $0.id == credential.id }) else {
                throw .conflict(.credentialExists)
            }
            // Counted and inserted under the one lock, as the adapter does in one transaction.
            guard state.credentials.count(where: { $0.accountID == credential.accountID }) < limit else {
                return .limitReached
            }
            state.credentials.append(credential)
            if let notice { state.notices.append(QueuedNotice(accountID: credential.accountID, pending: notice)) }
            state.events.append(event)
            return .added
        }
    }
}
