/// Why a COSE_Key cannot be used.
package enum COSEKeyError: Error, Hashable, Sendable {
    /// Not a COSE_Key this verifier understands (wrong types, missing or inconsistent
    /// parameters, a point off the curve, an `alg` that contradicts `kty`/`crv`).
    case malformed
    /// A well-formed key whose algorithm this verifier does not implement.
    case unsupportedAlgorithm
}
