internal import Foundation
internal import PasskeyDomain

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

/// `PUT /v1/account/password` (recent sign-in): sets the password of a passkey-only account, or
/// replaces the current one. Every *other* password session ends (the old password no longer
/// keeps anyone signed in) and, with mail on, a `passwordSet` notice goes to a verified address.
package struct PasswordSetUseCase: Sendable {
    let accounts: any AccountRepository
    let hasher: any PasswordHasher
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        accounts: any AccountRepository, hasher: any PasswordHasher, notifier: SecurityNotifier = .off,
        clock: any WallClock, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.accounts = accounts
        self.hasher = hasher
        self.notifier = notifier
        self.clock = clock
    }

    package func execute(session: RecentSession, password: String, origin: RequestOrigin)
        async throws(PasswordSetError)
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
        let notice = notifier.notice(.passwordSet, at: now, from: origin)
        let set = try await PasswordSetError.catching { () async throws(RepositoryError) in
            try await accounts.setPassword(
                accountID: session.account.id, passwordHash: hash, now: now, keepingSession: session.session.id,
                notice: notice,
                event: events.event(
                    .passwordSet, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin))
        }
        guard set else { throw .unauthorized }
    }
}

extension PasswordSetError: RepositoryBackedError {
    package static var accountGone: Self { .unauthorized }
}
