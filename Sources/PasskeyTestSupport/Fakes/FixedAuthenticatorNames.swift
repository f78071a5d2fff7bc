internal import PasskeyApplication
package import PasskeyDomain

/// `AuthenticatorNames` from a dictionary a test gives.
package struct FixedAuthenticatorNames: AuthenticatorNames {
    let names: [AAGUID: String]

    package init(_ names: [AAGUID: String] = [:]) { self.names = names }

    package func name(for aaguid: AAGUID) -> String? { names[aaguid] }
}
