import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// (v4) Locking and unlocking an account: the lock ends every session, is recorded with the
/// operator as actor and the reason, and mailed (without the reason); a second lock is refused;
/// unlocking an unlocked account records nothing. (The race with sign-ins is tested on the real
/// database: Tests/PasskeyServerTests/Operators/SupportDeskTests.swift.)
@Suite struct AccountLockUseCaseTests {
    private func useCase(_ f: SupportFixture) -> AccountLockUseCase {
        AccountLockUseCase(store: f.store, notifier: f.notifier, clock: f.clock)
    }

    @Test func aLockEndsEverySessionAndIsRecordedWithItsActorAndReason() async throws {
        let f = SupportFixture()
        _ = f.store.signIn(f.account, at: f.clock.now)
        _ = f.store.signIn(f.account, method: .passkey, at: f.clock.now)
        let locked = try await useCase(f).lock(
            f.account.id, reason: "  Calls from an impostor  ", by: SupportFixture.agent)
        #expect(locked.lock == AccountLock(lockedAt: f.clock.now, reason: LockReason("Calls from an impostor")!))
        #expect(locked.activeSessions == 0)
        #expect(f.liveSessions.isEmpty)
        #expect(f.lock == locked.lock)
        let event = try #require(f.store.events.last)
        #expect(event.activity == .accountLocked(reason: LockReason("Calls from an impostor")!))
        #expect(event.actor == SupportFixture.agent)
        #expect(event.clientAddress == nil && event.userAgent == nil && event.sessionID == nil)
        let mail = try #require(f.store.outbox.last)
        #expect(mail.subject.contains("support locked your account"))
        #expect(!mail.body.contains("impostor"), "the reason is for the activity, not the mail")
        #expect(!mail.body.contains("Mika"), "the notice does not name the operator")
    }

    @Test func aLockedAccountCannotBeLockedAgainAndNothingChanges() async throws {
        let f = SupportFixture()
        _ = try await useCase(f).lock(f.account.id, reason: "first", by: SupportFixture.agent)
        let before = (f.store.events.count, f.store.outbox.count, f.lock)
        await #expect(throws: SupportDeskError.alreadyLocked) {
            try await useCase(f).lock(f.account.id, reason: "second", by: SupportFixture.agent)
        }
        #expect((f.store.events.count, f.store.outbox.count, f.lock) == before)
    }

    @Test(arguments: ["", "   ", String(repeating: "x", count: 201), "line\nbreak"])
    func aBadReasonIsRefusedAndChangesNothing(reason: String) async throws {
        let f = SupportFixture()
        await #expect(throws: SupportDeskError.self) {
            try await useCase(f).lock(f.account.id, reason: reason, by: SupportFixture.agent)
        }
        #expect(f.lock == nil)
        #expect(f.store.events.isEmpty)
    }

    @Test func twoHundredCharactersAreAReason() async throws {
        let f = SupportFixture()
        let reason = String(repeating: "理", count: 200)
        let locked = try await useCase(f).lock(f.account.id, reason: reason, by: SupportFixture.agent)
        #expect(locked.lock?.reason.value == reason)
    }

    @Test func anUnknownAccountIsNotFound() async throws {
        let f = SupportFixture()
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).lock(AccountID(), reason: "x", by: SupportFixture.agent)
        }
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).unlock(AccountID(), by: SupportFixture.agent)
        }
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).lock(nil, reason: "x", by: SupportFixture.agent)
        }
    }

    @Test func unlockingRecordsAndMailsOnlyWhenLocked() async throws {
        let f = SupportFixture()
        let unlockedAsItWas = try await useCase(f).unlock(f.account.id, by: SupportFixture.agent)
        #expect(unlockedAsItWas.lock == nil)
        #expect(f.store.events.isEmpty)
        #expect(f.store.outbox.isEmpty)
        _ = try await useCase(f).lock(f.account.id, reason: "x", by: SupportFixture.agent)
        let unlocked = try await useCase(f).unlock(f.account.id, by: SupportFixture.agent)
        #expect(unlocked.lock == nil)
        #expect(f.lock == nil)
        #expect(f.store.events.map(\.kind) == [.accountLocked, .accountUnlocked])
        #expect(f.store.events.last?.actor == SupportFixture.agent)
        #expect(f.store.outbox.last?.subject.contains("support unlocked your account") == true)
    }

    @Test func anUnverifiedAddressGetsNoNotice() async throws {
        let f = SupportFixture(verified: false)
        _ = try await useCase(f).lock(f.account.id, reason: "x", by: SupportFixture.agent)
        #expect(f.store.outbox.isEmpty)
        #expect(f.store.events.count == 1)
    }
}
