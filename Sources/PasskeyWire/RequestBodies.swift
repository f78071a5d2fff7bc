// The request bodies of the contract (../shared/spec.md), shared by the server (which decodes
// them) and PasskeyClient (which encodes them). Binary values are base64url strings here; the
// client converts from `Data`, the server decodes leniently (padded and standard base64 too).

/// `POST /v1/accounts`.
public struct PasswordAccountRequestBody: Codable, Sendable {
    public let email: String
    public let displayName: String
    public let password: String

    public init(email: String, displayName: String, password: String) {
        self.email = email
        self.displayName = displayName
        self.password = password
    }
}

/// `POST /v1/sessions`.
public struct PasswordSessionRequestBody: Codable, Sendable {
    public let email: String
    public let password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `POST /v1/recovery/sessions`.
public struct RecoverySessionRequestBody: Codable, Sendable {
    public let email: String
    public let code: String

    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// `POST /v1/passkeys/registrations`.
public struct RegistrationStartRequestBody: Codable, Sendable {
    /// `modal` (default) or `conditional`.
    public let mode: String?

    public init(mode: String?) { self.mode = mode }
}

/// `POST /v1/passkey-accounts/registrations`.
public struct AccountRegistrationStartRequestBody: Codable, Sendable {
    public let email: String?
    public let displayName: String?

    public init(email: String?, displayName: String?) {
        self.email = email
        self.displayName = displayName
    }
}

/// `PATCH /v1/passkeys/{credentialID}`.
public struct PasskeyRenameRequestBody: Codable, Sendable {
    public let name: String

    public init(name: String) { self.name = name }
}

/// `PublicKeyCredential.toJSON()` of a registration or an authentication (WebAuthn L3 §5.1.8/§5.1.9).
public struct PublicKeyCredentialJSON: Codable, Sendable {
    public struct Response: Codable, Sendable {
        public let clientDataJSON: String
        public let attestationObject: String?
        public let authenticatorData: String?
        public let signature: String?
        public let userHandle: String?
        public let transports: [String]?
    }
    public struct ClientExtensionResults: Codable, Sendable {
        public struct CredProps: Codable, Sendable { public let rk: Bool? }
        public let credProps: CredProps?
    }
    public let id: String
    public let rawId: String?
    public let type: String?
    public let response: Response
    public let clientExtensionResults: ClientExtensionResults?
    public let authenticatorAttachment: String?
}

/// `POST /v1/passkeys/registrations/finish` and `POST /v1/passkey-accounts/registrations/finish`:
/// flattened fields, or `credential` (toJSON), never both.
public struct RegistrationFinishRequestBody: Codable, Sendable {
    public let challengeID: String?
    public let registrationID: String?
    public let email: String?
    public let displayName: String?
    public let name: String?
    public let credentialID: String?
    public let clientDataJSON: String?
    public let attestationObject: String?
    public let transports: [String]?
    public let credential: PublicKeyCredentialJSON?

    /// The flattened form, as an app sends it.
    public init(
        challengeID: String? = nil, registrationID: String? = nil, email: String? = nil, displayName: String? = nil,
        name: String? = nil, credentialID: String, clientDataJSON: String, attestationObject: String,
        transports: [String]? = nil
    ) {
        self.challengeID = challengeID
        self.registrationID = registrationID
        self.email = email
        self.displayName = displayName
        self.name = name
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.credential = nil
    }

    public var hasFlattenedFields: Bool {
        credentialID != nil || clientDataJSON != nil || attestationObject != nil || transports != nil
    }
}

/// `POST /v1/passkeys/authentications/finish`: flattened fields or `credential`, never both.
/// `userHandle` may be null or absent.
public struct AuthenticationFinishRequestBody: Codable, Sendable {
    public let challengeID: String
    public let credentialID: String?
    public let clientDataJSON: String?
    public let authenticatorData: String?
    public let signature: String?
    public let userHandle: String?
    public let credential: PublicKeyCredentialJSON?

    /// The flattened form, as an app sends it.
    public init(
        challengeID: String, credentialID: String, clientDataJSON: String, authenticatorData: String,
        signature: String, userHandle: String?
    ) {
        self.init(
            readChallengeID: challengeID, credentialID: credentialID, clientDataJSON: clientDataJSON,
            authenticatorData: authenticatorData, signature: signature, userHandle: userHandle)
    }

    /// Every flattened field as read, any of them absent (the server's reader without
    /// JSONDecoder, which then checks them as for a decoded body); `credential` is nil.
    package init(
        readChallengeID challengeID: String, credentialID: String?, clientDataJSON: String?,
        authenticatorData: String?, signature: String?, userHandle: String?
    ) {
        self.challengeID = challengeID
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.credential = nil
    }

    public var hasFlattenedFields: Bool {
        credentialID != nil || clientDataJSON != nil || authenticatorData != nil || signature != nil
            || userHandle != nil
    }
}

/// (v3) `POST /v1/account/email/verification/confirm` and `POST /v1/account/email/confirm`.
public struct EmailCodeRequestBody: Codable, Sendable {
    public let code: String

    public init(code: String) { self.code = code }
}

/// (v3) `PUT /v1/account/email` and `POST /v1/recovery/email`.
public struct EmailAddressRequestBody: Codable, Sendable {
    public let email: String

    public init(email: String) { self.email = email }
}

/// (v3) `POST /v1/recovery/email/sessions`.
public struct EmailSignInRequestBody: Codable, Sendable {
    public let email: String
    public let code: String

    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// (v3) `PUT /v1/account/password`.
public struct PasswordSetRequestBody: Codable, Sendable {
    public let password: String

    public init(password: String) { self.password = password }
}
