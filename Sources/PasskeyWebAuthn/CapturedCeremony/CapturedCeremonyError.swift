/// A captured ceremony file that cannot be run at all (as opposed to a refused response).
package enum CapturedCeremonyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A field is not valid base64url (field name).
    case invalidBase64URL(String)
    /// A required field for this ceremony is missing.
    case missingField(String)
    case invalidVerifyAt
    case invalidTrustAnchor
    case unknownAlgorithm(Int)
    /// An assertion's credential ID is empty or longer than 1023 bytes.
    case invalidCredentialID

    package var description: String {
        switch self {
        case .invalidBase64URL(let field): "field \(field) is not base64url"
        case .missingField(let field): "field \(field) is missing"
        case .invalidVerifyAt: "verifyAt is not an ISO 8601 instant"
        case .invalidTrustAnchor: "trustAnchorsPEM holds an unreadable certificate"
        case .unknownAlgorithm(let alg): "allowedAlgorithms holds unknown COSE algorithm \(alg)"
        case .invalidCredentialID: "response.credentialId is not 1 to 1023 bytes"
        }
    }
}
