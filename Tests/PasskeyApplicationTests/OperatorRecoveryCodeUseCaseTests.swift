import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `passkey-server recovery-code EMAIL`: one operator code, valid for the policy's lifetime, next
/// to the user's own set.
@Suite struct OperatorRecoveryCodeUseCaseTests {
    private struct Fixture {
        let codes = InMemoryRecoveryCodeRepository()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        var useCase: OperatorRecoveryCodeUseCase {
            var policy = PasskeyPolicy()
            policy.operatorRecoveryCodeLifetime = 3600
            return OperatorRecoveryCodeUseCase(
                recoveryCodes: codes, random: random, digester: PlainDigester(), policy: policy,
                clock: clock)
        }

        init() { codes.register(account, normalizedEmail: "riku@example.com") }
    }

    @Test func oneExpiringOperatorCodeIsStoredNextToTheUsersSet() async throws {
        let f = Fixture()
        let own = StoredRecoveryCode(
            id: UUID(), accountID: f.account.id, digest: [9], source: .user, createdAt: f.clock.now, expiresAt: nil)
        _ = try await f.codes.replaceCodes(accountID: f.account.id, with: [own])

        let issued = try await f.useCase.execute(email: " Riku@Example.com ")

        #expect(issued.accountID == f.account.id)
        #expect(issued.expiresAt == f.clock.now.addingTimeInterval(3600))
        let code = try #require(RecoveryCode(presented: issued.code))
        #expect(issued.code == code.formatted)
        let stored = f.codes.storedCodes
        #expect(stored.count == 2)
        #expect(stored.first == own)
        let added = try #require(stored.last)
        #expect(added.digest == Array(code.canonical.utf8))
        #expect(added.accountID == f.account.id)
        #expect(added.source == .operator)
        #expect(added.createdAt == f.clock.now)
        #expect(added.expiresAt == issued.expiresAt)
    }

    @Test func aMalformedEmailIsInvalidAndAnUnknownOneUnknown() async throws {
        let f = Fixture()
        await #expect(throws: OperatorRecoveryCodeError.invalidEmail) { try await f.useCase.execute(email: "riku") }
        await #expect(throws: OperatorRecoveryCodeError.unknownEmail) {
            try await f.useCase.execute(email: "nobody@example.com")
        }
        #expect(f.codes.storedCodes.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.codes.failNext(.unavailable)
        await #expect(throws: OperatorRecoveryCodeError.unavailable) {
            try await f.useCase.execute(email: "riku@example.com")
        }
        f.codes.failNext(.scripted("addOperatorCode"))
        await #expect(throws: OperatorRecoveryCodeError.internalFailure(cause: .scripted("addOperatorCode"))) {
            try await f.useCase.execute(email: "riku@example.com")
        }
        #expect(f.codes.storedCodes.isEmpty)
    }
}
