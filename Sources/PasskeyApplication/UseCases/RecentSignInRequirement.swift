/// The error of the recent-sign-in rule.
package enum RecentSignInError: Error, Hashable, Sendable {
    /// The session signed in longer ago than `REAUTHENTICATION_WINDOW_SECONDS`.
    case reauthenticationRequired
}

/// The contract's "recent sign-in" rule for the step-up endpoints: the session signed in at
/// most `policy.reauthenticationWindow` ago. The server's `recentSignIn` route kind checks it
/// right after the token, before anything else of the endpoint.
package struct RecentSignInRequirement: Sendable {
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(policy: PasskeyPolicy, clock: any WallClock) {
        self.policy = policy
        self.clock = clock
    }

    package func check(_ session: ActiveSession) throws(RecentSignInError) {
        guard session.session.signedInRecently(now: clock.now, window: policy.reauthenticationWindow) else {
            throw .reauthenticationRequired
        }
    }
}
