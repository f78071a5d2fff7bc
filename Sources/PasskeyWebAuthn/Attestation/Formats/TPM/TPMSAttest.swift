/// `certInfo` of a TPM attestation statement: a TPMS_ATTEST (TPM 2.0 Part 2 §10.12.12) whose
/// `attested` member is a TPMS_CERTIFY_INFO (§10.12.3), parsed exactly (WebAuthn L3 §8.3).
package struct TPMSAttest {
    /// TPM_GENERATED_VALUE: the structure was made by a TPM (Part 2 §6.2).
    static let generatedValue: UInt32 = 0xff54_4347
    /// TPM_ST_ATTEST_CERTIFY (Part 2 §6.9).
    static let attestCertify: UInt16 = 0x8017
    /// Largest certInfo accepted; a real one is about 160 bytes.
    static let maximumLength = 1024
    /// sizeof(TPMU_NAME) and sizeof(TPMT_HA): a hash algorithm ID and a digest of up to 64 bytes.
    static let maximumNameLength = 2 + 64

    let magic: UInt32
    let type: UInt16
    let qualifiedSigner: [UInt8]
    /// The caller-supplied data: for WebAuthn the hash of attToBeSigned.
    let extraData: [UInt8]
    let clock: UInt64
    let resetCount: UInt32
    let restartCount: UInt32
    let safe: UInt8
    let firmwareVersion: UInt64
    /// TPMS_CERTIFY_INFO.name: the Name of the certified object (nameAlg ‖ H(pubArea)).
    let attestedName: [UInt8]
    let attestedQualifiedName: [UInt8]

    /// Parses certInfo; nil unless it is a complete TPMS_ATTEST with TPM_GENERATED_VALUE and
    /// TPM_ST_ATTEST_CERTIFY and no trailing bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength else { return nil }
        var reader = TPMReader(bytes)
        guard let magic = reader.uint32(), magic == Self.generatedValue,
            let type = reader.uint16(), type == Self.attestCertify,
            let qualifiedSigner = reader.sized(maximum: Self.maximumNameLength),
            let extraData = reader.sized(maximum: Self.maximumNameLength),
            // TPMS_CLOCK_INFO (§10.11.1): clock, resetCount, restartCount, safe.
            let clock = reader.uint64(), let resetCount = reader.uint32(), let restartCount = reader.uint32(),
            let safe = reader.uint8(), safe <= 1,
            let firmwareVersion = reader.uint64(),
            let attestedName = reader.sized(maximum: Self.maximumNameLength),
            let attestedQualifiedName = reader.sized(maximum: Self.maximumNameLength),
            reader.isAtEnd
        else { return nil }
        self.magic = magic
        self.type = type
        self.qualifiedSigner = qualifiedSigner
        self.extraData = extraData
        self.clock = clock
        self.resetCount = resetCount
        self.restartCount = restartCount
        self.safe = safe
        self.firmwareVersion = firmwareVersion
        self.attestedName = attestedName
        self.attestedQualifiedName = attestedQualifiedName
    }
}
