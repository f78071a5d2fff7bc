/// The Android key attestation extension value `KeyDescription` (OID 1.3.6.1.4.1.11129.2.1.17),
/// parsed as DER: the fields WebAuthn L3 §8.4.2 checks.
///
/// ```
/// KeyDescription ::= SEQUENCE {
///     attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///     keymasterVersion INTEGER, keymasterSecurityLevel SecurityLevel,
///     attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///     softwareEnforced AuthorizationList, teeEnforced AuthorizationList }
/// ```
package struct AndroidKeyDescription {
    static let extensionOID = "1.3.6.1.4.1.11129.2.1.17"
    /// Longest attestationChallenge accepted (Keystore allows 128 bytes).
    static let maximumChallengeLength = 128

    let attestationVersion: Int
    /// SecurityLevel: 0 Software, 1 TrustedEnvironment, 2 StrongBox.
    let attestationSecurityLevel: Int
    let keymasterVersion: Int
    let keymasterSecurityLevel: Int
    let attestationChallenge: [UInt8]
    let uniqueID: [UInt8]
    let softwareEnforced: AndroidAuthorizationList
    let teeEnforced: AndroidAuthorizationList

    /// Parses the extension value; nil when malformed. Members after teeEnforced are tolerated
    /// (ASN.1 extensibility for later attestation versions).
    package init?(extensionValue: [UInt8]) {
        guard let sequence = DERReader.single(extensionValue, tag: DERElement.sequence),
            let fields = DERReader.elements(sequence)
        else { return nil }
        var next = fields.makeIterator()
        guard let version = next.next(), version.hasTag(DERElement.integer),
            let attestationVersion = version.smallInteger,
            let level = next.next(), level.hasTag(DERElement.enumerated),
            let attestationSecurityLevel = level.smallInteger,
            let keymaster = next.next(), keymaster.hasTag(DERElement.integer),
            let keymasterVersion = keymaster.smallInteger,
            let keymasterLevel = next.next(), keymasterLevel.hasTag(DERElement.enumerated),
            let keymasterSecurityLevel = keymasterLevel.smallInteger,
            let challenge = next.next(), challenge.hasTag(DERElement.octetString),
            challenge.contents.count <= Self.maximumChallengeLength,
            let uniqueID = next.next(), uniqueID.hasTag(DERElement.octetString),
            let software = next.next(), software.hasTag(DERElement.sequence),
            let softwareEnforced = AndroidAuthorizationList(contents: software.contents),
            let tee = next.next(), tee.hasTag(DERElement.sequence),
            let teeEnforced = AndroidAuthorizationList(contents: tee.contents)
        else { return nil }
        self.attestationVersion = attestationVersion
        self.attestationSecurityLevel = attestationSecurityLevel
        self.keymasterVersion = keymasterVersion
        self.keymasterSecurityLevel = keymasterSecurityLevel
        self.attestationChallenge = challenge.contents
        self.uniqueID = uniqueID.contents
        self.softwareEnforced = softwareEnforced
        self.teeEnforced = teeEnforced
    }
}
