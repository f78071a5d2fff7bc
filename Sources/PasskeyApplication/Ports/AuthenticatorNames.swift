package import PasskeyDomain

/// Names passkeys after their authenticator model when the AAGUID is known.
package protocol AuthenticatorNames: Sendable {
    func name(for aaguid: AAGUID) -> String?
}
