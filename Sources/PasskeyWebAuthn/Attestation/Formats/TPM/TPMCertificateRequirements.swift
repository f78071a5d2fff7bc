internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// WebAuthn L3 §8.3.1: TPM attestation statement (AIK) certificate requirements.
enum TPMCertificateRequirements {
    /// TCG attribute types of the SAN directoryName (TPMv2-EK-Profile §3.2.9).
    static let manufacturerOID = "2.23.133.2.1"
    static let modelOID = "2.23.133.2.2"
    static let versionOID = "2.23.133.2.3"
    /// tcg-kp-AIKCertificate.
    static let aikCertificateKeyPurpose = "2.23.133.8.3"

    static func check(_ aik: Certificate, aaguid: AAGUID) throws(CredentialVerificationFailure) {
        // Version 3 and an empty subject.
        guard aik.version == 3, aik.subjectAttributeCount == 0 else { throw .invalidAttestation }
        // SAN with TPM manufacturer, model and version, each exactly once.
        guard let value = aik.extensionValue(oid: SubjectAlternativeName.extensionOID),
            let san = SubjectAlternativeName(extensionValue: value),
            let manufacturer = attribute(manufacturerOID, in: san), isManufacturerID(manufacturer),
            let model = attribute(modelOID, in: san), !model.isEmpty,
            let version = attribute(versionOID, in: san), !version.isEmpty
        else { throw .invalidAttestation }
        // EKU contains tcg-kp-AIKCertificate.
        guard let ekuValue = aik.extensionValue(oid: ExtendedKeyUsage.extensionOID),
            let purposes = ExtendedKeyUsage.purposes(extensionValue: ekuValue),
            purposes.contains(aikCertificateKeyPurpose)
        else { throw .invalidAttestation }
        // Basic constraints present with CA = false.
        guard aik.basicConstraintsCA == false else { throw .invalidAttestation }
        // §8.3.2 step 5: id-fido-gen-ce-aaguid, when present, equals the authData AAGUID.
        try PackedAttestation.checkAAGUIDExtension(aik, aaguid: aaguid)
    }

    /// The value of an attribute that occurs exactly once in the SAN's directory names.
    static func attribute(_ oid: String, in san: SubjectAlternativeName) -> String? {
        let values = san.directoryAttributes.filter { $0.oid == oid }
        guard values.count == 1 else { return nil }
        return values.first?.value
    }

    /// TPMManufacturer is `id:` and the 4-byte TCG vendor ID in 8 hex digits (e.g. `id:494E5443`
    /// for INTC). Any well-formed ID is accepted: the vendor registry changes, and whether a
    /// vendor is trusted is the chain's business (the `trusted` policy).
    static func isManufacturerID(_ value: String) -> Bool {
        let utf8 = Array(value.utf8)
        guard utf8.count == 11, utf8.starts(with: Array("id:".utf8)) else { return false }
        return utf8.dropFirst(3).allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}
