/// PublicKeyCredentialCreationOptionsJSON (WebAuthn L3 §5.4), as
/// `PublicKeyCredential.parseCreationOptionsFromJSON` takes it.
public struct CreationOptionsJSON: Codable, Sendable {
    public struct RelyingParty: Codable, Sendable {
        public let id: String
        public let name: String
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }
    public struct User: Codable, Sendable {
        public let id: String
        public let name: String
        public let displayName: String
        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }
    public struct Parameter: Codable, Sendable {
        public let type: String
        public let alg: Int
        public init(alg: Int) {
            self.type = "public-key"
            self.alg = alg
        }
    }
    public struct Descriptor: Codable, Sendable {
        public let type: String
        public let id: String
        public let transports: [String]?
        public init(id: String, transports: [String]?) {
            self.type = "public-key"
            self.id = id
            self.transports = transports
        }
    }
    public struct Selection: Codable, Sendable {
        public let residentKey: String
        public let requireResidentKey: Bool
        public let userVerification: String
        public init(userVerification: String) {
            self.residentKey = "required"
            self.requireResidentKey = true
            self.userVerification = userVerification
        }
    }
    public struct Extensions: Codable, Sendable {
        public let credProps: Bool
        public init() { credProps = true }
    }

    public let rp: RelyingParty
    public let user: User
    public let challenge: String
    public let pubKeyCredParams: [Parameter]
    public let timeout: Int
    public let excludeCredentials: [Descriptor]
    public let authenticatorSelection: Selection
    public let attestation: String
    public let hints: [String]
    public let extensions: Extensions

    public init(
        rp: RelyingParty, user: User, challenge: String, pubKeyCredParams: [Parameter], timeout: Int,
        excludeCredentials: [Descriptor], authenticatorSelection: Selection, attestation: String = "none"
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
        self.hints = []
        self.extensions = Extensions()
    }
}

/// PublicKeyCredentialRequestOptionsJSON (WebAuthn L3 §5.5) with an empty allowCredentials.
public struct RequestOptionsJSON: Codable, Sendable {
    public struct Descriptor: Codable, Sendable {
        public let type: String
        public let id: String
    }
    public let challenge: String
    public let rpId: String
    public let timeout: Int
    public let userVerification: String
    public let allowCredentials: [Descriptor]
    public let hints: [String]

    public init(challenge: String, rpId: String, timeout: Int, userVerification: String) {
        self.challenge = challenge
        self.rpId = rpId
        self.timeout = timeout
        self.userVerification = userVerification
        self.allowCredentials = []
        self.hints = []
    }
}
