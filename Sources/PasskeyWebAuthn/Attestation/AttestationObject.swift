/// The attestation object (WebAuthn L3 §6.5.4): `{fmt: text, attStmt: map, authData: bytes}`.
package struct AttestationObject: Sendable {
    package let format: String
    /// The attestation statement map (format-specific).
    package let statement: CBORValue
    package let authenticatorDataBytes: [UInt8]

    /// WebAuthn L3 §7.1 step 12: CBOR-decode the attestation object (nil when malformed).
    package init?(bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) {
        guard let value = try? decoder.decode(bytes), case .map(let entries) = value, entries.count == 3,
            case .text(let format)? = value[text: "fmt"],
            let statement = value[text: "attStmt"], case .map = statement,
            case .bytes(let authData)? = value[text: "authData"]
        else { return nil }
        self.format = format
        self.statement = statement
        self.authenticatorDataBytes = authData
    }
}
