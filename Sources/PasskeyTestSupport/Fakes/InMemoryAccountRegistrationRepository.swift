package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `AccountRegistrationRepository` in memory for unit tests of use cases, with the PostgreSQL
/// adapter's rules: a registration is usable while unexpired (`expiresAt > now`), not
/// completed and not used up by `PasskeyAccountRegistration.maximumFailedFinishes` recorded
/// failures; completing it claims it and writes account, email, passkey and session together,
/// and a conflict (an email taken, a credential ID registered: see `takeEmail` and
/// `registerCredentialID`) writes nothing and leaves the registration usable. `failNext` makes
/// the next call throw, `failNextCompletion` the next completion (after a successful look-up).
package final class InMemoryAccountRegistrationRepository: AccountRegistrationRepository {
    /// What one completed registration wrote.
    package struct Created: Hashable, Sendable {
        package let account: Account
        package let email: AccountEmail
        package let credential: PasskeyCredential
        package let session: AuthenticationSession
    }

    private struct State {
        var events: [AccountEvent] = []
        var registrations: [RegistrationID: PasskeyAccountRegistration] = [:]
        var takenEmails: Set<String> = []
        var credentialIDs: Set<CredentialID> = []
        var failedFinishes: [RegistrationID: Int] = [:]
        var created: [Created] = []
        var failNext: RepositoryError?
        var failNextCompletion: RepositoryError?
        var raceNextCompletion = false
    }

    private let state = Mutex(State())

    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// The next `completeAccountRegistration` throws this error (and writes nothing).
    package func failNextCompletion(_ error: RepositoryError) { state.withLock { $0.failNextCompletion = error } }

    /// An account elsewhere has this normalised email.
    package func takeEmail(_ normalizedEmail: String) { state.withLock { _ = $0.takenEmails.insert(normalizedEmail) } }

    /// A passkey elsewhere has this credential ID.
    package func registerCredentialID(_ id: CredentialID) { state.withLock { _ = $0.credentialIDs.insert(id) } }

    /// The next `completeAccountRegistration` finds its registration completed by a concurrent
    /// finish (between the use case's look-up and its completion).
    package func raceNextCompletion() { state.withLock { $0.raceNextCompletion = true } }

    /// A stored registration as it stands now (`completedAt` set once completed).
    package func registration(id: RegistrationID) -> PasskeyAccountRegistration? {
        state.withLock { $0.registrations[id] }
    }

    /// How many failing finishes were recorded for a registration.
    package func failedFinishes(id: RegistrationID) -> Int { state.withLock { $0.failedFinishes[id, default: 0] } }

    /// Every stored registration.
    package var all: [PasskeyAccountRegistration] { state.withLock { Array($0.registrations.values) } }

    /// What every completed registration wrote, in order.
    package var created: [Created] { state.withLock { $0.created } }

    private static func isUsable(_ id: RegistrationID, in state: State, now: Date) -> Bool {
        guard let registration = state.registrations[id] else { return false }
        return registration.completedAt == nil && registration.expiresAt > now
            && state.failedFinishes[id, default: 0] < PasskeyAccountRegistration.maximumFailedFinishes
    }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func saveAccountRegistration(_ registration: PasskeyAccountRegistration) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.registrations[registration.id] = registration
        }
    }

    package func usableAccountRegistration(id: RegistrationID, now: Date) async throws(RepositoryError)
        -> PasskeyAccountRegistration?
    {
        try state.withLock { (state) throws(RepositoryError) -> PasskeyAccountRegistration? in
            try checkFailure(&state)
            guard Self.isUsable(id, in: state, now: now) else { return nil }
            return state.registrations[id]
        }
    }

    package func recordFailedFinish(id: RegistrationID, now: Date) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            guard Self.isUsable(id, in: state, now: now) else { return false }
            state.failedFinishes[id, default: 0] += 1
            return true
        }
    }

    package func completeAccountRegistration(
        id: RegistrationID, account: Account, email: AccountEmail, credential: PasskeyCredential,
        session: AuthenticationSession, now: Date, verification: EmailCodeMail?, events: [AccountEvent]
    ) async throws(RepositoryError) -> AccountRegistrationCompletion {
        try state.withLock { (state) throws(RepositoryError) -> AccountRegistrationCompletion in
            try checkFailure(&state)
            if let error = state.failNextCompletion {
                state.failNextCompletion = nil
                throw error
            }
            if state.raceNextCompletion {
                state.raceNextCompletion = false
                state.registrations[id]?.completedAt = now
            }
            guard Self.isUsable(id, in: state, now: now) else { return .unavailable }
            // The adapter inserts the passkey before the email; a conflict rolls everything back.
            guard !state.credentialIDs.contains(credential.id) else { throw .conflict(.credentialExists) }
            guard !state.takenEmails.contains(email.email.normalized) else { throw .conflict(.emailTaken) }
            state.registrations[id]?.completedAt = now
            state.takenEmails.insert(email.email.normalized)
            state.credentialIDs.insert(credential.id)
            state.created.append(Created(account: account, email: email, credential: credential, session: session))
            state.events += events
            return .completed
        }
    }
}
