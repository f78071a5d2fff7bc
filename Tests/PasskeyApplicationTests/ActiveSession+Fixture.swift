import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

extension ActiveSession {
    /// A live session of `account` that signed in with `method` at `createdAt`.
    static func signedIn(
        _ account: Account = DomainFixtures.account(), method: AuthenticationMethod = .password, at createdAt: Date
    ) -> ActiveSession {
        ActiveSession(
            session: DomainFixtures.session(accountID: account.id, method: method, createdAt: createdAt),
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
