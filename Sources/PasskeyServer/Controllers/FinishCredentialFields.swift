internal import PasskeyWire

/// The credential of a finish body, whichever form it came in: `credential` (what
/// `PublicKeyCredential.toJSON()` returns) or the flattened fields an app sends. Both forms at
/// once is an invalid request. The one place that reads either form, for registrations and
/// sign-ins alike; the fields stay base64 text here (the caller decodes and names them).
struct FinishCredentialFields {
    var credentialID: String?
    var clientDataJSON: String?
    var attestationObject: String?
    var authenticatorData: String?
    var signature: String?
    var userHandle: String?
    var transports: [String]?
    /// `clientExtensionResults.credProps.rk` of a toJSON() registration.
    var residentKey: Bool?
    /// Where the fields came from, to name them in errors (`credential.response.` or nothing).
    var prefix: String

    init(credential: PublicKeyCredentialJSON?, flattened: FinishCredentialFields, hasFlattenedFields: Bool)
        throws(Problem)
    {
        guard let credential else {
            self = flattened
            return
        }
        guard !hasFlattenedFields else {
            throw Problem.invalidRequest("Send either credential or the flattened fields, not both.")
        }
        self.init(
            credentialID: credential.rawId ?? credential.id, clientDataJSON: credential.response.clientDataJSON,
            attestationObject: credential.response.attestationObject,
            authenticatorData: credential.response.authenticatorData, signature: credential.response.signature,
            userHandle: credential.response.userHandle, transports: credential.response.transports,
            residentKey: credential.clientExtensionResults?.credProps?.rk, prefix: "credential.response.")
    }

    init(
        credentialID: String?, clientDataJSON: String?, attestationObject: String? = nil,
        authenticatorData: String? = nil, signature: String? = nil, userHandle: String? = nil,
        transports: [String]? = nil, residentKey: Bool? = nil, prefix: String = ""
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.transports = transports
        self.residentKey = residentKey
        self.prefix = prefix
    }

    /// A field that must be present, named as the client sent it.
    func required(_ value: String?, _ field: String) throws(Problem) -> String {
        guard let value else {
            // The credential's ID is `id`/`rawId` in toJSON(), not under `response`.
            let name = field == "credentialID" || prefix.isEmpty ? field : prefix + field
            throw Problem.invalidRequest("\(name) is required.")
        }
        return value
    }
}

extension RegistrationFinishRequestBody {
    /// The registration credential of this body, from either form.
    func credentialFields() throws(Problem) -> FinishCredentialFields {
        try FinishCredentialFields(
            credential: credential,
            flattened: FinishCredentialFields(
                credentialID: credentialID, clientDataJSON: clientDataJSON, attestationObject: attestationObject,
                transports: transports),
            hasFlattenedFields: hasFlattenedFields)
    }
}

extension AuthenticationFinishRequestBody {
    /// The assertion of this body, from either form.
    func credentialFields() throws(Problem) -> FinishCredentialFields {
        try FinishCredentialFields(
            credential: credential,
            flattened: FinishCredentialFields(
                credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
                signature: signature, userHandle: userHandle),
            hasFlattenedFields: hasFlattenedFields)
    }
}
