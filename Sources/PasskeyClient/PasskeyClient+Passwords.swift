internal import Foundation
internal import PasskeyWire

/// Password accounts, the existing users of the migration.
extension PasskeyClient {
    /// `POST /v1/accounts`.
    public func createPasswordAccount(email: String, displayName: String, password: String)
        async throws(PasskeyClientError) -> PasskeyCreatedAccount
    {
        try await send(
            "POST", "/v1/accounts",
            body: PasswordAccountRequestBody(email: email, displayName: displayName, password: password),
            expecting: PasskeyCreatedAccount.self)
    }

    /// `POST /v1/sessions`; the session's token is held for the calls that follow.
    @discardableResult
    public func signIn(email: String, password: String) async throws(PasskeyClientError) -> PasskeySession {
        try await holding(
            send(
                "POST", "/v1/sessions", body: PasswordSessionRequestBody(email: email, password: password),
                expecting: PasskeySession.self))
    }

    /// `DELETE /v1/sessions/current`; forgets the held token (and clears the
    /// token store) when it was the one signed out.
    public func signOut(token: String? = nil) async throws(PasskeyClientError) {
        let signedOut = token ?? accessToken
        try await send("DELETE", "/v1/sessions/current", authorization: .bearer(token))
        if let signedOut { forget(ifHeld: signedOut) }
    }

    /// Keeps a new session's token (and saves it in the token store).
    func holding(_ session: PasskeySession) -> PasskeySession {
        hold(PasskeyStoredToken(accessToken: session.accessToken, expiresAt: session.expiresAt))
        return session
    }
}
