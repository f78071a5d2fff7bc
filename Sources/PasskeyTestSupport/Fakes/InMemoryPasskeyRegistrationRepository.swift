package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `PasskeyRegistrationRepository` in memory for unit tests of use cases, with the PostgreSQL
/// adapter's rules: a challenge is consumed at most once, only unexpired (`expiresAt > now`) and
/// only by its own account (another account's attempt leaves it untouched). `failNext` makes the
/// next call throw. (The verified passkey is stored through the `UnitOfWork`: `InMemoryStore`.)
package final class InMemoryPasskeyRegistrationRepository: PasskeyRegistrationRepository {
    private struct State {
        var challenges: [ChallengeID: PasskeyRegistrationChallenge] = [:]
        var failNext: RepositoryError?
    }

    private let state = Mutex(State())

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// A stored challenge as it stands now (`consumedAt` set once consumed).
    package func challenge(id: ChallengeID) -> PasskeyRegistrationChallenge? { state.withLock { $0.challenges[id] } }

    /// Every stored challenge.
    package var challenges: [PasskeyRegistrationChallenge] { state.withLock { Array($0.challenges.values) } }

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
}
