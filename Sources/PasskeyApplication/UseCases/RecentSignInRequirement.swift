/// The rule of the account changes a stolen older token must not make (deleting the account, a
/// passkey or the password; replacing the recovery codes): the session must have signed in less
/// than `REAUTHENTICATION_WINDOW_SECONDS` ago, checked before every other error.
struct RecentSignInRequirement: Sendable {
    let policy: PasskeyPolicy
    let clock: any WallClock

    /// `.reauthenticationRequired` unless `session` signed in recently.
    func check(_ session: ActiveSession) throws(AccountManagementError) {
        guard session.session.signedInRecently(now: clock.now, window: policy.reauthenticationWindow) else {
            throw .reauthenticationRequired
        }
    }

    /// Runs `change` on storage if `session` signed in recently, its errors as the account's.
    func change<T>(by session: ActiveSession, _ change: () async throws(RepositoryError) -> T)
        async throws(AccountManagementError) -> T
    {
        try check(session)
        return try await AccountManagementError.catching(change)
    }
}
