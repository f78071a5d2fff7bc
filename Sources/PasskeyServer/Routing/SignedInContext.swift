internal import PasskeyApplication

/// The context of a route that needs a signed-in caller: the request's context and the live
/// session behind its bearer token. Handlers of such routes never authenticate themselves; the
/// route kind (`Routes.signedIn`, `Routes.recentSignIn`) did it before calling them.
struct SignedInContext: RequestContextWrapper {
    let request: RequestContext
    let session: ActiveSession
}

/// (v4) The context of a `Routes.sessionToken` route: the request's context and the bearer token,
/// not yet looked up (the use case does, in its own statement).
struct SessionTokenContext: RequestContextWrapper {
    let request: RequestContext
    let token: String
}
