internal import COpenSSL

/// The subject attributes WebAuthn attestation rules look at.
package enum CertificateNameAttribute: Sendable, Hashable, CaseIterable {
    case country, organization, organizationalUnit, commonName

    var nid: Int32 {
        switch self {
        case .country: NID_countryName
        case .organization: NID_organizationName
        case .organizationalUnit: NID_organizationalUnitName
        case .commonName: NID_commonName
        }
    }
}
