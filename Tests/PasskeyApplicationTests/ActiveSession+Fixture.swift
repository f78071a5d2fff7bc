import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

extension ActiveSession {
    /// A live session of `account` that signed in with `method` at `createdAt` (and lives the
    /// default 30 days).
    static func signedIn(
        _ account: Account = DomainFixtures.account(), method: AuthenticationMethod = .password, at createdAt: Date
    ) -> ActiveSession {
        ActiveSession(
            session: DomainFixtures.session(
                accountID: account.id, method: method, createdAt: createdAt,
                lifetime: PasskeyPolicy().sessionLifetime),
            account: account)
    }
}

extension RecentSession {
    /// What the server's `recentSignIn` route kind hands the step-up use cases: a session of
    /// `account` that signed in just now, proved recent by the one requirement there is.
    static func signedIn(_ account: Account = DomainFixtures.account(), method: AuthenticationMethod = .password)
        -> RecentSession
    {
        let clock = FixedClock()
        let active = ActiveSession.signedIn(account, method: method, at: clock.now)
        // A session of age 0 passes any window of at least 10 s (the contract's minimum).
        return try! RecentSignInRequirement(policy: PasskeyPolicy(reauthenticationWindow: 10), clock: clock)
            .check(active)
    }
}

extension ActiveSession {
    /// `signedIn(_:method:at:)`, stored in `store`: the changes a session authorises re-check it
    /// in their transaction (`StoreTransaction.requireLive`), so it must be there and live.
    static func signedIn(
        _ account: Account, method: AuthenticationMethod = .password, at createdAt: Date, in store: InMemoryStore
    ) -> ActiveSession {
        ActiveSession(session: store.signIn(account, method: method, at: createdAt), account: account)
    }
}

extension RecentSession {
    /// `signedIn(_:method:)`, stored in `store` (see `ActiveSession.signedIn(_:method:at:in:)`).
    static func signedIn(_ account: Account, method: AuthenticationMethod = .password, in store: InMemoryStore)
        -> RecentSession
    {
        let recent = RecentSession.signedIn(account, method: method)
        store.add(recent.session)
        return recent
    }
}
