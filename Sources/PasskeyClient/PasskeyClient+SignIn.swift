internal import Foundation
internal import PasskeyWire

/// The one passkey sign-in for everyone (discoverable credentials, no username first), and
/// recovery codes for when the passkey is lost.
extension PasskeyClient {
    /// `POST /v1/passkeys/authentications`.
    public func startPasskeySignIn() async throws(PasskeyClientError) -> PasskeySignInOptions {
        let options = try await send(
            "POST", "/v1/passkeys/authentications", expecting: AuthenticationOptionsResponseBody.self)
        guard let challenge = Data(base64URLEncoded: options.challenge) else {
            throw .unexpectedResponse("sign-in options are not base64url")
        }
        return PasskeySignInOptions(
            challengeID: options.challengeID, relyingPartyID: options.relyingPartyID, challenge: challenge,
            userVerification: PasskeyUserVerification(wire: options.publicKey.userVerification),
            allowedCredentialIDs: options.publicKey.allowCredentials.compactMap { Data(base64URLEncoded: $0.id) },
            expiresAt: options.expiresAt)
    }

    /// `POST /v1/passkeys/authentications/finish`; the session's token is held. An
    /// `.unknownCredential` error means the passkey was deleted here: tell the system
    /// (`reportUnknownPublicKeyCredential`) so the device stops offering it.
    @discardableResult
    public func finishPasskeySignIn(challengeID: String, assertion: PasskeyAssertionCredential)
        async throws(PasskeyClientError) -> PasskeySession
    {
        try await holding(
            send(
                "POST", "/v1/passkeys/authentications/finish",
                body: AuthenticationFinishRequestBody(
                    challengeID: challengeID, credentialID: assertion.credentialID.base64URLEncoded,
                    clientDataJSON: assertion.rawClientDataJSON.base64URLEncoded,
                    authenticatorData: assertion.rawAuthenticatorData.base64URLEncoded,
                    signature: assertion.signature.base64URLEncoded, userHandle: assertion.userID?.base64URLEncoded),
                expecting: PasskeySession.self))
    }

    /// `POST /v1/recovery/sessions`: a short session (`method` `recovery`) from one recovery
    /// code; the token is held. Register a new passkey with it right away (modal).
    @discardableResult
    public func signIn(email: String, recoveryCode: String) async throws(PasskeyClientError) -> PasskeySession {
        try await holding(
            send(
                "POST", "/v1/recovery/sessions", body: RecoverySessionRequestBody(email: email, code: recoveryCode),
                expecting: PasskeySession.self))
    }
}
