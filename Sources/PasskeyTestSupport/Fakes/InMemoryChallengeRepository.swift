package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `ChallengeRepository` in memory for unit tests of use cases, with the PostgreSQL adapter's
/// rule: a challenge is consumed at most once, only unexpired (`expiresAt > now`) and, for a
/// registration challenge, only by its own account (another account's attempt leaves it
/// untouched). `failNext` makes the next call throw. For a sign-in, `assertionContext` reads
/// without consuming; `InMemorySessionRepository(challenges:)` consumes in `recordAssertion`,
/// as the PostgreSQL adapter's one statement does.
package final class InMemoryChallengeRepository: ChallengeRepository {
    private struct State {
        var registration: [ChallengeID: PasskeyRegistrationChallenge] = [:]
        var failNext: RepositoryError?
        // Sign-in (see the extension below).
        var authentication: [ChallengeID: PasskeyAuthenticationChallenge] = [:]
        var signInCredentials: [CredentialID: (credential: PasskeyCredential, account: Account)] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// A stored registration challenge as it stands now (`consumedAt` set once consumed).
    package func registrationChallenge(id: ChallengeID) -> PasskeyRegistrationChallenge? {
        state.withLock { $0.registration[id] }
    }

    /// Every stored registration challenge.
    package var registrationChallenges: [PasskeyRegistrationChallenge] {
        state.withLock { Array($0.registration.values) }
    }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func saveRegistrationChallenge(_ challenge: PasskeyRegistrationChallenge) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.registration[challenge.id] = challenge
        }
    }

    package func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?
    {
        try state.withLock { (state) throws(RepositoryError) -> PasskeyRegistrationChallenge? in
            try checkFailure(&state)
            guard var challenge = state.registration[id], challenge.accountID == accountID,
                challenge.consumedAt == nil, challenge.expiresAt > now
            else { return nil }
            challenge.consumedAt = now
            state.registration[id] = challenge
            return challenge
        }
    }
}

// MARK: - Sign-in challenges

extension InMemoryChallengeRepository {
    /// Makes `assertionContext` find this credential and its account.
    package func registerForSignIn(_ credential: PasskeyCredential, account: Account) {
        state.withLock { $0.signInCredentials[credential.id] = (credential, account) }
    }

    /// Every stored sign-in challenge (`consumedAt` set once consumed).
    package var authenticationChallenges: [PasskeyAuthenticationChallenge] {
        state.withLock { Array($0.authentication.values) }
    }

    package func saveAuthenticationChallenge(_ challenge: PasskeyAuthenticationChallenge)
        async throws(RepositoryError)
    {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.authentication[challenge.id] = challenge
        }
    }

    package func assertionContext(challengeID: ChallengeID, credentialID: CredentialID, now: Date)
        async throws(RepositoryError) -> AssertionContext
    {
        try state.withLock { (state) throws(RepositoryError) -> AssertionContext in
            try checkFailure(&state)
            let usable = state.authentication[challengeID].flatMap {
                $0.consumedAt == nil && $0.expiresAt > now ? $0 : nil
            }
            let found = state.signInCredentials[credentialID]
            return AssertionContext(challenge: usable, credential: found?.credential, account: found?.account)
        }
    }

    @discardableResult
    package func consumeAuthenticationChallenge(id: ChallengeID, now: Date) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            return Self.consume(id, now: now, unexpiredOnly: false, in: &state)
        }
    }

    /// `recordAssertion`'s first step: consumes the challenge if unconsumed and unexpired at `now`.
    package func consumeForAssertion(id: ChallengeID, now: Date) -> Bool {
        state.withLock { Self.consume(id, now: now, unexpiredOnly: true, in: &$0) }
    }

    /// Marks the challenge consumed at `now` if it is not yet (and, with `unexpiredOnly`, not expired).
    private static func consume(_ id: ChallengeID, now: Date, unexpiredOnly: Bool, in state: inout State) -> Bool {
        guard var challenge = state.authentication[id], challenge.consumedAt == nil,
            !unexpiredOnly || challenge.expiresAt > now
        else { return false }
        challenge.consumedAt = now
        state.authentication[id] = challenge
        return true
    }
}
