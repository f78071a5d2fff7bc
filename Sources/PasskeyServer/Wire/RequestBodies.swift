/// `POST /v1/accounts`.
struct PasswordAccountRequestBody: Decodable {
    let email: String
    let displayName: String
    let password: String
}

/// `POST /v1/sessions`.
struct PasswordSessionRequestBody: Decodable {
    let email: String
    let password: String
}

/// `POST /v1/recovery/sessions`.
struct RecoverySessionRequestBody: Decodable {
    let email: String
    let code: String
}

/// `POST /v1/passkeys/registrations`.
struct RegistrationStartRequestBody: Decodable {
    let mode: String?
}

/// `POST /v1/passkey-accounts/registrations`.
struct AccountRegistrationStartRequestBody: Decodable {
    let email: String?
    let displayName: String?
}

/// `PATCH /v1/passkeys/{credentialID}`.
struct PasskeyRenameRequestBody: Decodable {
    let name: String
}

/// `PublicKeyCredential.toJSON()` of a registration or an authentication (WebAuthn L3 §5.1.8/§5.1.9).
struct PublicKeyCredentialJSON: Decodable {
    struct Response: Decodable {
        let clientDataJSON: String
        let attestationObject: String?
        let authenticatorData: String?
        let signature: String?
        let userHandle: String?
        let transports: [String]?
    }
    struct ClientExtensionResults: Decodable {
        struct CredProps: Decodable { let rk: Bool? }
        let credProps: CredProps?
    }
    let id: String
    let rawId: String?
    let type: String?
    let response: Response
    let clientExtensionResults: ClientExtensionResults?
    let authenticatorAttachment: String?
}

/// `POST /v1/passkeys/registrations/finish` and `POST /v1/passkey-accounts/registrations/finish`:
/// flattened fields, or `credential` (toJSON), never both.
struct RegistrationFinishRequestBody: Decodable {
    let challengeID: String?
    let registrationID: String?
    let email: String?
    let displayName: String?
    let name: String?
    let credentialID: String?
    let clientDataJSON: String?
    let attestationObject: String?
    let transports: [String]?
    let credential: PublicKeyCredentialJSON?

    var hasFlattenedFields: Bool {
        credentialID != nil || clientDataJSON != nil || attestationObject != nil || transports != nil
    }
}

/// `POST /v1/passkeys/authentications/finish`: flattened fields or `credential`, never both.
/// `userHandle` may be null or absent.
struct AuthenticationFinishRequestBody: Decodable {
    let challengeID: String
    let credentialID: String?
    let clientDataJSON: String?
    let authenticatorData: String?
    let signature: String?
    let userHandle: String?
    let credential: PublicKeyCredentialJSON?

    var hasFlattenedFields: Bool {
        credentialID != nil || clientDataJSON != nil || authenticatorData != nil || signature != nil
            || userHandle != nil
    }
}
