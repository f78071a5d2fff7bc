internal import Foundation
internal import PasskeyWire

/// (v3) The account's email address: proving it with a mailed code, changing it, and signing
/// in by email when every other way back is lost. With mail off on the server each of these
/// fails with `.mailUnavailable` (503).
extension PasskeyClient {
    /// `POST /v1/account/email/verification` (202): mails a new code to the account's address
    /// (earlier unused ones stop working). `.emailAlreadyVerified` (409) when there is nothing to
    /// prove; `.rateLimited` (429, `retryAfter`) beyond the sending limit.
    public func requestEmailVerification(token: String? = nil) async throws(PasskeyClientError) {
        try await send("POST", "/v1/account/email/verification", authorization: .bearer(token))
    }

    /// `POST /v1/account/email/verification/confirm`: the account with `emailVerified` true.
    /// A wrong, used, expired or void code is `.invalidCode` (400).
    public func confirmEmailVerification(code: String, token: String? = nil)
        async throws(PasskeyClientError) -> PasskeyAccount
    {
        try await send(
            "POST", "/v1/account/email/verification/confirm", body: EmailCodeRequestBody(code: code),
            authorization: .bearer(token), expecting: PasskeyAccount.self)
    }

    /// `PUT /v1/account/email` (needs a recent sign-in; 202): mails a code to the *new* address;
    /// nothing changes until `confirmEmailChange(code:)`. `.emailTaken` (409) when another
    /// account has it.
    public func changeEmail(to email: String, token: String? = nil) async throws(PasskeyClientError) {
        try await send(
            "PUT", "/v1/account/email", body: EmailAddressRequestBody(email: email), authorization: .bearer(token))
    }

    /// `POST /v1/account/email/confirm`: the account with the new address, verified.
    /// `.invalidCode` (400) for a wrong code, `.emailTaken` (409) when it was taken meanwhile.
    public func confirmEmailChange(code: String, token: String? = nil)
        async throws(PasskeyClientError) -> PasskeyAccount
    {
        try await send(
            "POST", "/v1/account/email/confirm", body: EmailCodeRequestBody(code: code),
            authorization: .bearer(token), expecting: PasskeyAccount.self)
    }

    /// `POST /v1/recovery/email` (202, always the same answer): a sign-in code is mailed when an
    /// account has this address. Nothing tells whether one does.
    public func requestEmailSignInCode(email: String) async throws(PasskeyClientError) {
        try await send("POST", "/v1/recovery/email", body: EmailAddressRequestBody(email: email))
    }

    /// `POST /v1/recovery/email/sessions`: a short session (`method` `email`) that counts as a
    /// recent sign-in and verifies the address; the token is held. Add a passkey with it next.
    /// A wrong, used or expired code (or an unknown email) is `.invalidCredentials` (401).
    @discardableResult
    public func signInWithEmailCode(email: String, code: String) async throws(PasskeyClientError) -> PasskeySession {
        try await holding(
            send(
                "POST", "/v1/recovery/email/sessions", body: EmailSignInRequestBody(email: email, code: code),
                expecting: PasskeySession.self))
    }
}
