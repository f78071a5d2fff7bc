/// The protected header of a SafetyNet attestation JWS (RFC 7515 §4.1): the signature
/// algorithm and the signing certificate chain (standard base64 DER, leaf first).
struct SafetyNetJWSHeader: Decodable {
    let alg: String
    let x5c: [String]
}
