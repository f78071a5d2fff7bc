import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// A new recovery set: a recent sign-in, ten codes shown once, only their digests stored, every
/// earlier code (the user's and the operator's) replaced.
@Suite struct RecoveryCodeSetCreationUseCaseTests {
    private struct Fixture {
        let codes = InMemoryStore()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        let account: Account
        var useCase: RecoveryCodeSetCreationUseCase {
            RecoveryCodeSetCreationUseCase(
                store: codes, random: random, digester: PlainDigester(),
                clock: clock)
        }

        init() { account = codes.addAccount(email: "aoi@example.com") }

        var storedCodes: [StoredRecoveryCode] { codes.tables.recoveryCodes.map(\.code) }

        func session() -> RecentSession { .signedIn(account, in: codes) }
    }

    @Test func tenDistinctCodesAreShownOnceAndOnlyTheirDigestsStored() async throws {
        let f = Fixture()
        let set = try await f.useCase.execute(session: f.session(), origin: .example)
        #expect(set.createdAt == f.clock.now)
        #expect(set.codes.count == RecoveryCodeSetCreationUseCase.codesPerSet)
        #expect(Set(set.codes).count == set.codes.count)
        for code in set.codes { #expect(code.wholeMatch(of: /[0-9A-Z]{4}(-[0-9A-Z]{4}){3}/) != nil) }
        let stored = f.storedCodes
        // PlainDigester: the digest is the canonical code itself.
        let digests = set.codes.map { Array(RecoveryCode(presented: $0)!.canonical.utf8) }
        #expect(stored.map(\.digest) == digests)
        #expect(stored.allSatisfy { $0.accountID == f.account.id && $0.source == .user })
        #expect(stored.allSatisfy { $0.createdAt == f.clock.now && $0.expiresAt == nil })
        #expect(Set(stored.map(\.id)).count == stored.count)
        #expect(f.codes.events.map(\.activity) == [.recoveryCodesCreated])
    }

    @Test func aNewSetReplacesEveryEarlierCode() async throws {
        let f = Fixture()
        f.codes.add(
            StoredRecoveryCode(
                id: UUID(), accountID: f.account.id, digest: [1], source: .operator, createdAt: Date(),
                expiresAt: Date().addingTimeInterval(86_400)))
        let first = try await f.useCase.execute(session: f.session(), origin: .example)
        let second = try await f.useCase.execute(session: f.session(), origin: .example)
        #expect(Set(first.codes).isDisjoint(with: second.codes))
        let digests = second.codes.map { Array(RecoveryCode(presented: $0)!.canonical.utf8) }
        #expect(f.storedCodes.map(\.digest) == digests)
    }

    @Test func anAccountThatIsGoneIsNotFound() async throws {
        let f = Fixture()
        await #expect(throws: AccountManagementError.notFound) {
            try await f.useCase.execute(session: .signedIn(), origin: .example)
        }
        #expect(f.storedCodes.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.codes.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
        // After the old codes' delete: the insert fails, and the delete rolls back.
        let old = StoredRecoveryCode(
            id: UUID(), accountID: f.account.id, digest: [7], source: .user, createdAt: Date(), expiresAt: nil)
        f.codes.add(old)
        f.codes.failNext(.scripted("insert"), afterCalls: 2)
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("insert"))) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
        #expect(f.storedCodes == [old])
        #expect(f.codes.events.isEmpty)
    }
}
