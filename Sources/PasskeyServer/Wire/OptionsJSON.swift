internal import PasskeyApplication
internal import PasskeyDomain

/// PublicKeyCredentialCreationOptionsJSON (WebAuthn L3 §5.4), as
/// `PublicKeyCredential.parseCreationOptionsFromJSON` takes it.
struct CreationOptionsJSON: Encodable {
    struct RelyingParty: Encodable {
        let id: String
        let name: String
    }
    struct User: Encodable {
        let id: String
        let name: String
        let displayName: String
    }
    struct Parameter: Encodable {
        let type = "public-key"
        let alg: Int
    }
    struct Descriptor: Encodable {
        let type = "public-key"
        let id: String
        let transports: [String]
    }
    struct Selection: Encodable {
        let residentKey = "required"
        let requireResidentKey = true
        let userVerification: String
    }
    struct Extensions: Encodable { let credProps = true }

    let rp: RelyingParty
    let user: User
    let challenge: String
    let pubKeyCredParams: [Parameter]
    let timeout: Int
    let excludeCredentials: [Descriptor]
    let authenticatorSelection: Selection
    let attestation = "none"
    let hints: [String]
    let extensions = Extensions()

    init(_ options: CredentialCreationOptions) {
        rp = RelyingParty(id: options.relyingPartyID, name: options.relyingPartyName)
        user = User(
            id: Base64URL.encode(options.userHandle.bytes), name: options.userName,
            displayName: options.userDisplayName)
        challenge = Base64URL.encode(options.challenge.bytes)
        pubKeyCredParams = options.algorithms.map { Parameter(alg: $0.rawValue) }
        timeout = options.timeoutMilliseconds
        excludeCredentials = options.excludeCredentials.map {
            Descriptor(id: Base64URL.encode($0.id.bytes), transports: $0.transports)
        }
        authenticatorSelection = Selection(userVerification: options.userVerification.rawValue)
        hints = []
    }
}

/// PublicKeyCredentialRequestOptionsJSON (WebAuthn L3 §5.5) with an empty allowCredentials.
struct RequestOptionsJSON: Encodable {
    struct Descriptor: Encodable {
        let type = "public-key"
        let id: String
    }
    let challenge: String
    let rpId: String
    let timeout: Int
    let userVerification: String
    let allowCredentials: [Descriptor] = []
    let hints: [String] = []

    init(_ options: CredentialRequestOptions) {
        challenge = Base64URL.encode(options.challenge.bytes)
        rpId = options.relyingPartyID
        timeout = options.timeoutMilliseconds
        userVerification = options.userVerification.rawValue
    }
}
