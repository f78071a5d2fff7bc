internal import Foundation
public import PasskeyWire

/// Password accounts, the existing users of the migration.
extension PasskeyClient {
    /// `POST /v1/accounts`.
    public func createPasswordAccount(email: String, displayName: String, password: String)
        async throws(PasskeyClientError) -> AccountCreatedResponseBody
    {
        try await send(
            "POST", "/v1/accounts",
            body: PasswordAccountRequestBody(email: email, displayName: displayName, password: password),
            expecting: AccountCreatedResponseBody.self)
    }

    /// `POST /v1/sessions`; the session's token is held for the calls that follow.
    @discardableResult
    public func signIn(email: String, password: String) async throws(PasskeyClientError) -> PasskeySession {
        try await holding(
            send(
                "POST", "/v1/sessions", body: PasswordSessionRequestBody(email: email, password: password),
                expecting: PasskeySession.self))
    }

    /// `DELETE /v1/sessions/current`; forgets the held token when it was the one signed out.
    public func signOut(token: String? = nil) async throws(PasskeyClientError) {
        try await send("DELETE", "/v1/sessions/current", authorization: .bearer(token))
        if token == nil || token == accessToken { setAccessToken(nil) }
    }

    /// Keeps a new session's token.
    func holding(_ session: PasskeySession) -> PasskeySession {
        setAccessToken(session.accessToken)
        return session
    }
}
