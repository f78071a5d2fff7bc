/// What `PasskeyRegistrationRepository.addCredential(_:limit:)` did.
package enum CredentialAddition: Hashable, Sendable {
    /// The passkey is stored.
    case added
    /// The account holds `limit` passkeys already; nothing was written.
    case limitReached
}
