internal import Foundation
package import PasskeyDomain

/// Why setting the password failed.
package enum PasswordSetError: Error, Hashable, Sendable {
    case weakPassword
    case hashingBusy
    /// The account was deleted under the request.
    case unauthorized
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// A password set or replaced, on this account.
package struct PasswordChange: Sendable {
    package let accountID: AccountID
}

/// `PUT /v1/account/password` (recent sign-in): sets the password of a passkey-only account, or
/// replaces the current one. Every *other* password session ends (the old password no longer
/// keeps anyone signed in) and, with mail on, a `passwordSet` notice goes to a verified address.
package struct PasswordSetUseCase: Sendable {
    let store: any UnitOfWork
    let hasher: any PasswordHasher
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, hasher: any PasswordHasher, notifier: SecurityNotifier = .off,
        clock: any WallClock, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.store = store
        self.hasher = hasher
        self.notifier = notifier
        self.clock = clock
    }

    @discardableResult
    package func execute(session: RecentSession, password: String, origin: RequestOrigin)
        async throws(PasswordSetError) -> PasswordChange
    {
        guard PasswordRules.isAcceptable(password) else { throw .weakPassword }
        let hash: String
        do {
            hash = try await hasher.hash(password)
        } catch {
            switch error {
            case .busy: throw .hashingBusy
            case .failed: throw .internalFailure(cause: FailureCause(error))
            }
        }
        let now = clock.now
        let accountID = session.account.id
        let event = events.event(
            .passwordSet, accountID: accountID, sessionID: session.session.id, at: now, from: origin)
        let set = try await store.transaction(as: PasswordSetError.self) { tx async throws(RepositoryError) in
            guard let account = try await tx.accounts.lock(accountID) else { return false }
            try await tx.requireLive(session.session, at: now)
            try await tx.accounts.setPassword(accountID, hash: hash, at: now)
            // The old password no longer keeps anyone signed in, except the caller.
            try await tx.sessions.revoke(.password, of: accountID, except: session.session.id, at: now)
            try await tx.queue(notifier.mail(.passwordSet, for: account, at: now, from: origin))
            try await tx.events.record(event)
            return true
        }
        guard set else { throw .unauthorized }
        return PasswordChange(accountID: accountID)
    }
}

extension PasswordSetError: RepositoryBackedError {
    package static var accountGone: Self { .unauthorized }
}
