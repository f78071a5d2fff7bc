/// The GeneralNames of a certificate's subjectAltName extension (RFC 5280 §4.2.1.6), as far
/// as attestation needs them: DNS names (SafetyNet, WebAuthn L3 §8.5) and the attributes of
/// directory names (TPM AIK certificates, WebAuthn L3 §8.3.1 and TPMv2-EK-Profile §3.2.9).
struct SubjectAlternativeName {
    /// subjectAltName.
    static let extensionOID = "2.5.29.17"

    /// Every `dNSName` ([2] IA5String).
    let dnsNames: [String]
    /// Every attribute of every `directoryName` ([4] Name), flattened over the RDNs:
    /// (attribute type OID, string value). Attributes whose value is not a string are left out.
    let directoryAttributes: [(oid: String, value: String)]

    /// Parses the extension value (the DER inside extnValue); nil when malformed.
    init?(extensionValue: [UInt8]) {
        guard let sequence = DERReader.single(extensionValue, tag: DERElement.sequence),
            let names = DERReader.elements(sequence), !names.isEmpty
        else { return nil }
        var dnsNames: [String] = []
        var attributes: [(oid: String, value: String)] = []
        for name in names {
            if name.identifier == 0x82 {
                guard let text = String(validating: name.contents, as: UTF8.self) else { return nil }
                dnsNames.append(text)
            } else if name.identifier == 0xa4 {
                guard let found = Self.attributes(ofDirectoryName: name.contents) else { return nil }
                attributes += found
            }
            // Other GeneralName choices (rfc822Name, URI, IP address, …) are not needed.
        }
        self.dnsNames = dnsNames
        self.directoryAttributes = attributes
    }

    /// `[4] EXPLICIT Name`: Name ::= SEQUENCE OF RelativeDistinguishedName (a SET OF
    /// AttributeTypeAndValue). TPM vendors put the three TCG attributes either in one RDN or in
    /// one RDN each (the "non-standard" structure of some Windows Hello AIK certificates): both
    /// are read, since only the attribute values matter.
    private static func attributes(ofDirectoryName explicit: [UInt8]) -> [(oid: String, value: String)]? {
        guard let name = DERReader.single(explicit, tag: DERElement.sequence), let rdns = DERReader.elements(name)
        else { return nil }
        var attributes: [(oid: String, value: String)] = []
        for rdn in rdns {
            guard rdn.hasTag(DERElement.set), let pairs = DERReader.elements(rdn.contents), !pairs.isEmpty else {
                return nil
            }
            for pair in pairs {
                guard pair.hasTag(DERElement.sequence), let parts = DERReader.elements(pair.contents),
                    parts.count == 2, let oid = parts.first?.objectIdentifier, let value = parts.last
                else { return nil }
                if let text = value.string { attributes.append((oid, text)) }
            }
        }
        return attributes
    }
}
