internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

extension CreationOptionsJSON {
    /// The wire form of the options a registration use case built.
    init(_ options: CredentialCreationOptions) {
        self.init(
            rp: RelyingParty(id: options.relyingPartyID, name: options.relyingPartyName),
            user: User(
                id: Base64URL.encode(options.userHandle.bytes), name: options.userName,
                displayName: options.userDisplayName),
            challenge: Base64URL.encode(options.challenge.bytes),
            pubKeyCredParams: options.algorithms.map { Parameter(alg: $0.rawValue) },
            timeout: options.timeoutMilliseconds,
            excludeCredentials: options.excludeCredentials.map {
                Descriptor(id: Base64URL.encode($0.id.bytes), transports: $0.transports)
            },
            authenticatorSelection: Selection(userVerification: options.userVerification.rawValue),
            attestation: options.attestation.rawValue)
    }
}

extension RequestOptionsJSON {
    /// The wire form of the options the sign-in use case built.
    init(_ options: CredentialRequestOptions) {
        self.init(
            challenge: Base64URL.encode(options.challenge.bytes), rpId: options.relyingPartyID,
            timeout: options.timeoutMilliseconds, userVerification: options.userVerification.rawValue)
    }
}
