import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyWebAuthn
import Testing

/// Every captured vector of `../shared/webauthn-vectors` is one named test case.
@Suite struct VectorConformanceTests {
    @Test func vectorsFolderIsPresent() {
        // The suite must fail, not silently pass, when the vectors are missing.
        #expect(WebAuthnVectors.fileNames.count == 98, "vectors at \(WebAuthnVectors.vectorsDirectory.path)")
    }

    @Test(arguments: WebAuthnVectors.fileNames)
    func vectorGivesExpectedOutcome(_ fileName: String) throws {
        let ceremony = try WebAuthnVectors.load(fileName)
        let result = try ceremony.verify(policy: .any)
        if ceremony.expected.ok || VectorExpectation.acceptedDespiteExpectation.contains(ceremony.name) {
            let outcome = try result.get()
            checkAcceptedFields(outcome, ceremony: ceremony)
        } else {
            let code = try #require(ceremony.expected.error)
            guard case .failure(let reason) = result else {
                Issue.record("accepted, expected \(code)")
                return
            }
            #expect(VectorExpectation.reasons(for: code).contains(reason), "got \(reason), expected \(code)")
        }
    }

    /// Each vector with trust anchors that verifies also verifies with the `trusted` policy.
    @Test(arguments: WebAuthnVectors.fileNames)
    func vectorWithAnchorsPassesTrustedPolicy(_ fileName: String) throws {
        let ceremony = try WebAuthnVectors.load(fileName)
        guard ceremony.expected.ok, !(ceremony.trustAnchorsPEM ?? []).isEmpty else { return }
        let result = try ceremony.verify(policy: .trusted)
        #expect(throws: Never.self) { try result.get() }
    }

    /// The same vectors against the shipped `TrustAnchors/` folder (per-format anchors): all pass
    /// except the software-keystore android-key attestation, whose root is deliberately not shipped.
    @Test(arguments: WebAuthnVectors.fileNames)
    func vectorWithAnchorsPassesShippedTrustAnchors(_ fileName: String) throws {
        let ceremony = try WebAuthnVectors.load(fileName)
        guard ceremony.expected.ok, !(ceremony.trustAnchorsPEM ?? []).isEmpty else { return }
        let shipped = try TrustAnchors.load(directory: WebAuthnVectors.shippedTrustAnchors.path)
        let result = try ceremony.verify(policy: .trusted, anchors: shipped)
        if VectorExpectation.untrustedWithShippedAnchors.contains(ceremony.name) {
            #expect(result == .failure(.untrustedAttestation))
        } else {
            #expect(throws: Never.self) { try result.get() }
        }
    }

    private func checkAcceptedFields(_ outcome: CapturedOutcome, ceremony: CapturedCeremony) {
        let expected = ceremony.expected
        switch outcome {
        case .registration(let r):
            #expect(expected.attestationFormat.map { $0 == r.attestationFormat } ?? true)
            #expect(expected.attestationType.map { $0 == r.attestationType.rawValue } ?? true)
            #expect(expected.credentialId.map { $0 == Base64URL.encode(r.credentialID.bytes) } ?? true)
            #expect(expected.credentialPublicKey.map { $0 == Base64URL.encode(r.publicKey) } ?? true)
            #expect(expected.aaguid.map { $0 == r.aaguid.description } ?? true)
            #expect(expected.signCount.map { $0 == r.signCount } ?? true)
            #expect(expected.alg.map { $0 == r.algorithm.rawValue } ?? true)
            #expect(expected.userPresent.map { $0 == r.userPresent } ?? true)
            #expect(expected.userVerified.map { $0 == r.userVerified } ?? true)
            #expect(expected.backupEligible.map { $0 == r.backupEligible } ?? true)
            #expect(expected.backupState.map { $0 == r.backupState } ?? true)
        case .authentication(let a):
            #expect(expected.signCount.map { $0 == a.signCount } ?? true)
            #expect(expected.alg.map { $0 == a.algorithm.rawValue } ?? true)
            #expect(expected.userPresent.map { $0 == a.userPresent } ?? true)
            #expect(expected.userVerified.map { $0 == a.userVerified } ?? true)
            #expect(expected.backupEligible.map { $0 == a.backupEligible } ?? true)
            #expect(expected.backupState.map { $0 == a.backupState } ?? true)
            #expect(!a.cloneWarning)
        }
    }
}
