import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// (v4) Ending every session and deleting a passkey for the support desk: recorded with the
/// operator as actor, mailed, and even the last passkey may go.
@Suite struct SupportAccountActionsUseCaseTests {
    private func useCase(_ f: SupportFixture) -> SupportAccountActionsUseCase {
        SupportAccountActionsUseCase(store: f.store, notifier: f.notifier, clock: f.clock)
    }

    @Test func everySessionEndsWithOneEventByTheOperator() async throws {
        let f = SupportFixture()
        _ = f.store.signIn(f.account, at: f.clock.now)
        _ = f.store.signIn(f.account, at: f.clock.now)
        try await useCase(f).endSessions(of: f.account.id, by: SupportFixture.agent)
        #expect(f.liveSessions.isEmpty)
        #expect(f.store.events.map(\.activity) == [.sessionsEnded(.support)])
        #expect(f.store.events.first?.actor == SupportFixture.agent)
        #expect(f.store.outbox.map(\.subject).contains { $0.contains("support signed out your sessions") })
    }

    @Test func withNoLiveSessionNothingIsRecorded() async throws {
        let f = SupportFixture()
        try await useCase(f).endSessions(of: f.account.id, by: SupportFixture.agent)
        #expect(f.store.events.isEmpty)
        #expect(f.store.outbox.isEmpty)
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).endSessions(of: AccountID(), by: SupportFixture.agent)
        }
    }

    @Test func theLastPasskeyMayGoAndTheSessionsItSignedInEnd() async throws {
        let f = SupportFixture()
        f.store.update { $0.passwords[f.account.id] = nil }  // passkey-only
        let passkey = DomainFixtures.passkey(accountID: f.account.id, createdAt: f.clock.now)
        f.store.add(passkey)
        let withIt = AuthenticationSession(
            id: SessionID(), accountID: f.account.id, tokenDigest: [1], method: .passkey, credentialID: passkey.id,
            createdAt: f.clock.now, expiresAt: f.clock.now.addingTimeInterval(3600))
        f.store.add(withIt)
        let other = f.store.signIn(f.account, method: .recovery, at: f.clock.now)
        try await useCase(f).deletePasskey(passkey.id, of: f.account.id, by: SupportFixture.agent)
        #expect(f.store.tables.passkeys.isEmpty)
        #expect(f.liveSessions.map(\.id) == [other.id])
        #expect(f.store.events.map(\.activity) == [.passkeyDeleted(credentialID: passkey.id)])
        #expect(f.store.events.first?.actor == SupportFixture.agent)
        #expect(f.store.outbox.map(\.subject).contains { $0.contains("support deleted a passkey") })
    }

    @Test func anotherAccountsPasskeyOrAnUnknownOneIsNotFound() async throws {
        let f = SupportFixture()
        let stranger = f.store.addAccount()
        let theirs = DomainFixtures.passkey(accountID: stranger.id, createdAt: f.clock.now)
        f.store.add(theirs)
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).deletePasskey(theirs.id, of: f.account.id, by: SupportFixture.agent)
        }
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).deletePasskey(nil, of: f.account.id, by: SupportFixture.agent)
        }
        #expect(f.store.tables.passkeys == [theirs])
        #expect(f.store.events.isEmpty)
    }
}
