internal import Foundation
internal import PasskeyWire

/// Adding a passkey to the signed-in account: by a button, or by Automatic Passkey Upgrade.
extension PasskeyClient {
    /// `POST /v1/passkeys/registrations`. An account that holds `MAX_PASSKEYS_PER_ACCOUNT`
    /// passkeys already is refused with `.server` code `.passkeyLimitReached` (409): the user
    /// deletes one first.
    public func startPasskeyRegistration(mode: PasskeyRegistrationMode = .modal, token: String? = nil)
        async throws(PasskeyClientError) -> PasskeyRegistrationOptions
    {
        let options = try await send(
            "POST", "/v1/passkeys/registrations", body: RegistrationStartRequestBody(mode: mode.rawValue),
            authorization: .bearer(token), expecting: RegistrationOptionsResponseBody.self)
        guard let challenge = Data(base64URLEncoded: options.challenge),
            let userID = Data(base64URLEncoded: options.userID),
            let mode = PasskeyRegistrationMode(rawValue: options.mode)
        else { throw .unexpectedResponse("registration options are not base64url") }
        return PasskeyRegistrationOptions(
            challengeID: options.challengeID, relyingPartyID: options.relyingPartyID,
            relyingPartyName: options.relyingPartyName, challenge: challenge, userID: userID,
            userName: options.userName, displayName: options.displayName, mode: mode,
            excludedCredentialIDs: options.publicKey.excludeCredentials.compactMap { Data(base64URLEncoded: $0.id) },
            userVerification: PasskeyUserVerification(wire: options.publicKey.authenticatorSelection.userVerification),
            attestation: PasskeyAttestationPreference(wire: options.publicKey.attestation), expiresAt: options.expiresAt
        )
    }

    /// `POST /v1/passkeys/registrations/finish` with what the platform returned. Fails with
    /// `.passkeyLimitReached` (409) when the account filled up since the start; nothing is stored.
    public func finishPasskeyRegistration(
        challengeID: String, credential: PasskeyRegistrationCredential, name: String? = nil, token: String? = nil
    ) async throws(PasskeyClientError) {
        try await send(
            "POST", "/v1/passkeys/registrations/finish",
            body: RegistrationFinishRequestBody(
                challengeID: challengeID, name: name, credentialID: credential.credentialID.base64URLEncoded,
                clientDataJSON: credential.rawClientDataJSON.base64URLEncoded,
                attestationObject: credential.rawAttestationObject.base64URLEncoded,
                transports: credential.transports.isEmpty ? nil : credential.transports),
            authorization: .bearer(token))
    }

    /// `POST /v1/passkey-accounts/registrations`: a new account whose only credential is a passkey.
    /// Give the email and display name now (form), or nothing (the iOS 26 account-creation sheet).
    public func startPasskeyAccountRegistration(email: String? = nil, displayName: String? = nil)
        async throws(PasskeyClientError) -> PasskeyAccountRegistrationOptions
    {
        let options = try await send(
            "POST", "/v1/passkey-accounts/registrations",
            body: AccountRegistrationStartRequestBody(email: email, displayName: displayName),
            expecting: AccountRegistrationOptionsResponseBody.self)
        guard let challenge = Data(base64URLEncoded: options.challenge),
            let userID = Data(base64URLEncoded: options.userID)
        else { throw .unexpectedResponse("account registration options are not base64url") }
        return PasskeyAccountRegistrationOptions(
            registrationID: options.registrationID, relyingPartyID: options.relyingPartyID, challenge: challenge,
            userID: userID, userName: options.publicKey.user.name, displayName: options.publicKey.user.displayName,
            userVerification: PasskeyUserVerification(wire: options.publicKey.authenticatorSelection.userVerification),
            attestation: PasskeyAttestationPreference(wire: options.publicKey.attestation), expiresAt: options.expiresAt
        )
    }

    /// `POST /v1/passkey-accounts/registrations/finish`; the new account is signed in and its
    /// session's token held. `email` and `displayName` are what the user gave (form or sheet).
    @discardableResult
    public func finishPasskeyAccountRegistration(
        registrationID: String, email: String, displayName: String, credential: PasskeyRegistrationCredential
    ) async throws(PasskeyClientError) -> PasskeySession {
        try await holding(
            send(
                "POST", "/v1/passkey-accounts/registrations/finish",
                body: RegistrationFinishRequestBody(
                    registrationID: registrationID, email: email, displayName: displayName,
                    credentialID: credential.credentialID.base64URLEncoded,
                    clientDataJSON: credential.rawClientDataJSON.base64URLEncoded,
                    attestationObject: credential.rawAttestationObject.base64URLEncoded,
                    transports: credential.transports.isEmpty ? nil : credential.transports),
                expecting: PasskeySession.self))
    }
}
