import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Adding an operator: a 256-bit token shown once, only its digest stored; names and roles
/// checked; `operator` (OPERATOR_TOKEN's name) and a taken name refused.
@Suite struct OperatorAdditionUseCaseTests {
    @Test func aNewOperatorGetsATokenOnlyItsDigestIsStored() async throws {
        let fixture = OperatorFixture()
        let (added, token) = try await fixture.addition.execute(name: " Hanako Sato ", role: "support")
        #expect(added.name.value == "Hanako Sato")
        #expect(added.role == .support)
        #expect(added.createdAt == fixture.clock.now)
        #expect(token.utf8.count == 43, "32 bytes, base64url")
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(fixture.repository.digests == [Array(token.utf8)], "the digest of the token (a plain fake here)")
        #expect(try await fixture.list.execute().map(\.name.value) == ["Hanako Sato"])
    }

    @Test func badNamesRolesAndTakenNamesAreRefused() async throws {
        let fixture = OperatorFixture()
        _ = try await fixture.addition.execute(name: "Ann", role: "viewer")
        await #expect(throws: OperatorManagementError.nameTaken) {
            try await fixture.addition.execute(name: "Ann", role: "admin")
        }
        for (name, role) in [
            ("", "viewer"), (String(repeating: "n", count: 65), "viewer"), ("a\u{0}b", "viewer"),
            ("Bob", "root"), ("Bob", "Admin"), ("operator", "admin"),
        ] {
            await #expect(throws: OperatorManagementError.self, "\(name) \(role)") {
                try await fixture.addition.execute(name: name, role: role)
            }
        }
        #expect(try await fixture.list.execute().count == 1)
    }
}
