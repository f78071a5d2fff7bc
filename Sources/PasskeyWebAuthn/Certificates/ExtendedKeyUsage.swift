/// The extKeyUsage extension (RFC 5280 §4.2.1.12): the purposes, as dotted OIDs.
enum ExtendedKeyUsage {
    static let extensionOID = "2.5.29.37"

    /// The key purpose OIDs of the extension value, or nil when malformed or empty.
    static func purposes(extensionValue: [UInt8]) -> [String]? {
        guard let sequence = DERReader.single(extensionValue, tag: DERElement.sequence),
            let elements = DERReader.elements(sequence), !elements.isEmpty
        else { return nil }
        var purposes: [String] = []
        for element in elements {
            guard let oid = element.objectIdentifier else { return nil }
            purposes.append(oid)
        }
        return purposes
    }
}
