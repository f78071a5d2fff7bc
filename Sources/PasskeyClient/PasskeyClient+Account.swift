public import Foundation
internal import PasskeyWire

/// The signed-in account: passkeys, password, recovery codes, sessions, deletion (the email
/// address is in `PasskeyClient+Email.swift`).
extension PasskeyClient {
    /// `GET /v1/account`.
    public func account(token: String? = nil) async throws(PasskeyClientError) -> PasskeyAccount {
        try await send("GET", "/v1/account", authorization: .bearer(token), expecting: PasskeyAccount.self)
    }

    /// `GET /v1/passkeys`.
    public func passkeys(token: String? = nil) async throws(PasskeyClientError) -> [Passkey] {
        try await send("GET", "/v1/passkeys", authorization: .bearer(token), expecting: [Passkey].self)
    }

    /// `PATCH /v1/passkeys/{credentialID}`.
    public func renamePasskey(credentialID: Data, to name: String, token: String? = nil)
        async throws(PasskeyClientError) -> Passkey
    {
        try await send(
            "PATCH", "/v1/passkeys/\(credentialID.base64URLEncoded)", body: PasskeyRenameRequestBody(name: name),
            authorization: .bearer(token), expecting: Passkey.self)
    }

    /// `DELETE /v1/passkeys/{credentialID}` (needs a recent sign-in). Afterwards report the
    /// remaining credentials to the system (`reportAllAcceptedPublicKeyCredentials`).
    public func deletePasskey(credentialID: Data, token: String? = nil) async throws(PasskeyClientError) {
        try await send("DELETE", "/v1/passkeys/\(credentialID.base64URLEncoded)", authorization: .bearer(token))
    }

    /// `DELETE /v1/account/password` (stage ③; needs a recent sign-in, a passkey that has signed
    /// in, and recovery set up: recovery codes, or (v3) a verified email while mail is on).
    public func removePassword(token: String? = nil) async throws(PasskeyClientError) {
        try await send("DELETE", "/v1/account/password", authorization: .bearer(token))
    }

    /// (v3) `PUT /v1/account/password` (needs a recent sign-in): sets the password of a
    /// passkey-only account, or replaces the one it has; every other password session ends.
    /// `.weakPassword` (400) for one the server refuses; `.serviceUnavailable` (503, `retryAfter`)
    /// when its hashing queue is full.
    public func setPassword(_ password: String, token: String? = nil) async throws(PasskeyClientError) {
        try await send(
            "PUT", "/v1/account/password", body: PasswordSetRequestBody(password: password),
            authorization: .bearer(token))
    }

    /// `POST /v1/account/recovery-codes` (needs a recent sign-in): 10 new codes, shown only now.
    public func createRecoveryCodes(token: String? = nil) async throws(PasskeyClientError) -> PasskeyRecoveryCodes {
        try await send(
            "POST", "/v1/account/recovery-codes", authorization: .bearer(token), expecting: PasskeyRecoveryCodes.self)
    }

    /// `GET /v1/account/sessions`: active sessions, newest first.
    public func sessions(token: String? = nil) async throws(PasskeyClientError) -> [PasskeySessionInfo] {
        try await send(
            "GET", "/v1/account/sessions", authorization: .bearer(token), expecting: [PasskeySessionInfo].self)
    }

    /// `DELETE /v1/account/sessions/{sessionID}` (the caller's own included).
    public func endSession(id sessionID: String, token: String? = nil) async throws(PasskeyClientError) {
        guard let escaped = sessionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-"])) else {
            throw .unexpectedResponse("not a session ID")
        }
        try await send("DELETE", "/v1/account/sessions/\(escaped)", authorization: .bearer(token))
    }

    /// `DELETE /v1/account/sessions`: every session except this one.
    public func endOtherSessions(token: String? = nil) async throws(PasskeyClientError) {
        try await send("DELETE", "/v1/account/sessions", authorization: .bearer(token))
    }

    /// `DELETE /v1/account` (needs a recent sign-in); forgets the held token and clears the
    /// token store. Then report the account's credentials as unknown to the system so the
    /// device stops offering them.
    public func deleteAccount(token: String? = nil) async throws(PasskeyClientError) {
        let deleted = token ?? accessToken
        try await send("DELETE", "/v1/account", authorization: .bearer(token))
        if let deleted { forget(ifHeld: deleted) }
    }
}
