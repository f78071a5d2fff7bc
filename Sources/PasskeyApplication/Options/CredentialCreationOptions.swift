package import PasskeyDomain

/// A credential the authenticator should not create again (excludeCredentials).
package struct CredentialDescriptor: Hashable, Sendable {
    package let id: CredentialID
    package let transports: [String]

    package init(id: CredentialID, transports: [String]) {
        self.id = id
        self.transports = transports
    }
}

/// What the client hands to `navigator.credentials.create` / ASAuthorizationPlatformPublicKeyCredentialProvider
/// (the server encodes it as PublicKeyCredentialCreationOptionsJSON).
package struct CredentialCreationOptions: Hashable, Sendable {
    package let relyingPartyID: String
    package let relyingPartyName: String
    package let userHandle: UserHandle
    /// The email, or "" when the iOS 26 sheet will collect it.
    package let userName: String
    package let userDisplayName: String
    package let challenge: Challenge
    package let algorithms: [COSEAlgorithm]
    /// Milliseconds; the challenge lifetime.
    package let timeoutMilliseconds: Int
    package let excludeCredentials: [CredentialDescriptor]
    package let userVerification: UserVerificationPolicy
    /// `direct` when the policy checks attestation chains, else `none`.
    package let attestation: AttestationConveyance

    package init(
        relyingPartyID: String, relyingPartyName: String, userHandle: UserHandle, userName: String,
        userDisplayName: String, challenge: Challenge, algorithms: [COSEAlgorithm], timeoutMilliseconds: Int,
        excludeCredentials: [CredentialDescriptor], userVerification: UserVerificationPolicy,
        attestation: AttestationConveyance
    ) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.challenge = challenge
        self.algorithms = algorithms
        self.timeoutMilliseconds = timeoutMilliseconds
        self.excludeCredentials = excludeCredentials
        self.userVerification = userVerification
        self.attestation = attestation
    }
}

/// What the client hands to `navigator.credentials.get` (PublicKeyCredentialRequestOptionsJSON),
/// with an empty allowCredentials: discoverable credentials, no username first.
package struct CredentialRequestOptions: Hashable, Sendable {
    package let relyingPartyID: String
    package let challenge: Challenge
    package let timeoutMilliseconds: Int
    package let userVerification: UserVerificationPolicy

    package init(
        relyingPartyID: String, challenge: Challenge, timeoutMilliseconds: Int, userVerification: UserVerificationPolicy
    ) {
        self.relyingPartyID = relyingPartyID
        self.challenge = challenge
        self.timeoutMilliseconds = timeoutMilliseconds
        self.userVerification = userVerification
    }
}
