internal import PasskeyApplication

/// The context of a step-up route (`Routes.recentSignIn`): the request's context and the session
/// that passed the recent-sign-in rule, which the step-up use cases take.
struct RecentSignInContext: RequestContextWrapper {
    let request: RequestContext
    let session: RecentSession
}
