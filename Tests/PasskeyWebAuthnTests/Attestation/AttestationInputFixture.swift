import Foundation
import PasskeyDomain
import PasskeyOpenSSL
import Testing

@testable import PasskeyWebAuthn

/// The inputs of one format's verification procedure, taken from a real vector, with `var`
/// fields so that a test can change exactly one of them.
struct AttestationInputFixture {
    var statement: CBORValue
    var authenticatorData: AuthenticatorData
    var clientDataHash: [UInt8]
    var credential: AttestedCredentialData
    var credentialKey: COSEKey
    var verificationTime: Date

    init(vector name: String) throws {
        let ceremony = try WebAuthnVectors.load(name + ".json")
        let encoded = try #require(ceremony.response.attestationObject)
        let objectBytes = try #require(Base64URL.decode(encoded))
        let object = try #require(AttestationObject(bytes: objectBytes))
        statement = object.statement
        authenticatorData = try AuthenticatorData(bytes: object.authenticatorDataBytes)
        let clientDataJSON = try #require(Base64URL.decode(ceremony.response.clientDataJSON))
        clientDataHash = Digest.sha256(clientDataJSON)
        credential = try #require(authenticatorData.attestedCredentialData)
        credentialKey = try COSEKey(credential.publicKey)
        verificationTime = try ceremony.verificationTime(now: Date())
    }

    var input: AttestationInput {
        AttestationInput(
            statement: statement, authenticatorData: authenticatorData, clientDataHash: clientDataHash,
            credential: credential, credentialKey: credentialKey, verificationTime: verificationTime)
    }

    /// The byte string member `key` of attStmt.
    func bytes(_ key: String) throws -> [UInt8] {
        guard case .bytes(let bytes)? = statement[text: key] else { throw FixtureError.missing(key) }
        return bytes
    }

    /// Replaces (or adds) one member of attStmt.
    mutating func set(_ key: String, _ value: CBORValue) {
        guard case .map(var entries) = statement else { return }
        entries.removeAll { $0.key == .text(key) }
        entries.append(CBORMapEntry(key: .text(key), value: value))
        statement = .map(entries)
    }

    /// The x5c certificates of attStmt.
    func certificates() throws -> [Certificate] {
        try #require(try X5CChain.parse(statement))
    }

    /// Flips the low bit of byte `index` of the byte string member `key`.
    mutating func flip(_ key: String, at index: Int) throws {
        var value = try bytes(key)
        try #require(value.indices.contains(index))
        value[index] ^= 0x01
        set(key, .bytes(value))
    }

    enum FixtureError: Error { case missing(String) }
}
