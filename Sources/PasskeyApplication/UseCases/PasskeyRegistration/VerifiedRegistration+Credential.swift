package import Foundation
package import PasskeyDomain

extension VerifiedRegistration {
    /// The passkey to store for a verified registration: the authenticator's facts plus what the
    /// client reported (transports, credProps.rk) and the name (given, the provider's, or "Passkey").
    package func credential(
        accountID: AccountID, response: RegistrationResponse, name: PasskeyName?, residentKey: Bool?,
        names: any AuthenticatorNames, createdAt: Date
    ) -> PasskeyCredential {
        PasskeyCredential(
            id: credentialID, accountID: accountID, publicKey: publicKey, algorithm: algorithm.rawValue,
            signCount: signCount, aaguid: aaguid, transports: response.transports, backupEligible: backupEligible,
            backupState: backupState, attestationFormat: attestationFormat, attestationType: attestationType,
            residentKey: residentKey, userVerified: userVerified,
            name: name ?? PasskeyName(trusted: names.name(for: aaguid) ?? "Passkey"), createdAt: createdAt,
            lastUsedAt: nil)
    }
}
