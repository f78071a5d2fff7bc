import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `passkey-server recovery-code --issued-by NAME EMAIL`: one operator code, valid for the policy's
/// lifetime, next to the user's own set; one live at a time.
@Suite struct OperatorRecoveryCodeUseCaseTests {
    private static let agent = SupportAgentName("Mika (desk 3)")!

    private struct Fixture {
        let codes = InMemoryStore()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        let account: Account
        var useCase: OperatorRecoveryCodeUseCase {
            var policy = PasskeyPolicy()
            policy.operatorRecoveryCodeLifetime = 3600
            return OperatorRecoveryCodeUseCase(
                store: codes, random: random, digester: PlainDigester(), policy: policy,
                clock: clock)
        }

        init() { account = codes.addAccount(email: "riku@example.com") }

        var storedCodes: [StoredRecoveryCode] { codes.tables.recoveryCodes.map(\.code) }

        /// The issuers the `recovery-code.issued` events name.
        var issuers: [SupportAgentName] {
            codes.events.compactMap { if case .recoveryCodeIssued(let issuer) = $0.activity { issuer } else { nil } }
        }
    }

    @Test func oneExpiringOperatorCodeIsStoredNextToTheUsersSet() async throws {
        let f = Fixture()
        let own = StoredRecoveryCode(
            id: UUID(), accountID: f.account.id, digest: [9], source: .user, createdAt: f.clock.now, expiresAt: nil)
        f.codes.add(own)

        let issued = try await f.useCase.execute(email: " Riku@Example.com ", issuedBy: Self.agent)

        #expect(issued.accountID == f.account.id)
        #expect(issued.expiresAt == f.clock.now.addingTimeInterval(3600))
        let code = try #require(RecoveryCode(presented: issued.code))
        #expect(issued.code == code.formatted)
        let stored = f.storedCodes
        #expect(stored.count == 2)
        #expect(stored.first == own)
        let added = try #require(stored.last)
        #expect(added.digest == Array(code.canonical.utf8))
        #expect(added.accountID == f.account.id)
        #expect(added.source == .operator)
        #expect(added.createdAt == f.clock.now)
        #expect(added.expiresAt == issued.expiresAt)
        #expect(f.issuers == [Self.agent])
    }

    @Test func issuingVoidsTheEarlierUnusedOperatorCodeButNotTheUsersSet() async throws {
        let f = Fixture()
        let own = StoredRecoveryCode(
            id: UUID(), accountID: f.account.id, digest: [9], source: .user, createdAt: f.clock.now, expiresAt: nil)
        f.codes.add(own)
        let first = try await f.useCase.execute(email: "riku@example.com", issuedBy: Self.agent)
        let other = SupportAgentName("Jun")!
        let second = try await f.useCase.execute(email: "riku@example.com", issuedBy: other)

        #expect(first.code != second.code)
        let stored = f.storedCodes
        #expect(stored.map(\.source) == [.user, .operator])
        #expect(stored.last?.digest == Array(try #require(RecoveryCode(presented: second.code)).canonical.utf8))
        #expect(f.issuers == [Self.agent, other])
    }

    @Test func aMalformedEmailIsInvalidAndAnUnknownOneUnknown() async throws {
        let f = Fixture()
        await #expect(throws: OperatorRecoveryCodeError.invalidEmail) {
            try await f.useCase.execute(email: "riku", issuedBy: Self.agent)
        }
        await #expect(throws: OperatorRecoveryCodeError.unknownEmail) {
            try await f.useCase.execute(email: "nobody@example.com", issuedBy: Self.agent)
        }
        #expect(f.storedCodes.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.codes.failNext(.unavailable)
        await #expect(throws: OperatorRecoveryCodeError.unavailable) {
            try await f.useCase.execute(email: "riku@example.com", issuedBy: Self.agent)
        }
        f.codes.failNext(.scripted("lock"))
        await #expect(throws: OperatorRecoveryCodeError.internalFailure(cause: .scripted("lock"))) {
            try await f.useCase.execute(email: "riku@example.com", issuedBy: Self.agent)
        }
        #expect(f.storedCodes.isEmpty)
    }
}
