internal import PasskeyApplication
internal import PasskeyDomain

/// The context of a route that needs a signed-in caller: the request's context and the live
/// session behind its bearer token. Handlers of such routes never authenticate themselves; the
/// route kind (`Routes.signedIn`, `Routes.recentSignIn`) did it before calling them.
struct SignedInContext: RequestContextWrapper {
    let request: RequestContext
    let session: ActiveSession
}

/// (v4) The context of a `Routes.operator` route: the request's context and the operator whose
/// token and role the route kind checked.
struct OperatorContext: RequestContextWrapper {
    let request: RequestContext
    let `operator`: Operator
}

extension OperatorAuthorizationUseCase {
    /// The operator paths exist while an operator or `OPERATOR_TOKEN` does (a database that
    /// cannot answer now leaves them visible: the request itself then answers 503).
    var visibility: Visibility {
        { (try? await isEnabled()) ?? true }
    }
}

/// (v4) The context of a `Routes.sessionToken` route: the request's context and the bearer token,
/// not yet looked up (the use case does, in its own statement).
struct SessionTokenContext: RequestContextWrapper {
    let request: RequestContext
    let token: String
}
