package import PasskeyDomain

/// The error of the recent-sign-in rule.
package enum RecentSignInError: Error, Hashable, Sendable {
    /// The session signed in longer ago than `REAUTHENTICATION_WINDOW_SECONDS`.
    case reauthenticationRequired
}

/// The contract's "recent sign-in" rule for the changes a stolen older token must not make
/// (deleting the account, a passkey or the password; replacing the recovery codes; adding a
/// passkey in modal mode; since v3 it bounds conditional mode too): the session signed in at
/// most `policy.reauthenticationWindow` ago.
/// Its one product, `RecentSession`, is what those use cases take, so none of them can run
/// without the check. The server's `recentSignIn` route kind checks it right after the token,
/// before every other error of the endpoint.
package struct RecentSignInRequirement: Sendable {
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(policy: PasskeyPolicy, clock: any WallClock) {
        self.policy = policy
        self.clock = clock
    }

    package func check(_ session: ActiveSession) throws(RecentSignInError) -> RecentSession {
        guard session.session.signedInRecently(now: clock.now, window: policy.reauthenticationWindow) else {
            throw .reauthenticationRequired
        }
        return RecentSession(session)
    }
}

/// A live session that passed `RecentSignInRequirement`. It lives in the requirement's file
/// because its initialiser is `fileprivate`: only the check makes one, so a use case that takes
/// it cannot be reached with an older token.
package struct RecentSession: Hashable, Sendable {
    package let active: ActiveSession

    fileprivate init(_ active: ActiveSession) {
        self.active = active
    }

    package var account: Account { active.account }
    package var session: AuthenticationSession { active.session }
}
