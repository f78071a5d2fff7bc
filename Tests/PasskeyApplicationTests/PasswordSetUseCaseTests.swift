import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Setting or replacing the password (`PUT /v1/account/password`, recent sign-in), branch by
/// branch on the in-memory store with the scripted hasher: the rules are checked before anything
/// is hashed; the hash, the end of every other password session, the `password.set` event and
/// (for a verified address with notices on) the notice commit together, or none of them does.
@Suite struct PasswordSetUseCaseTests {
    private static let oldHash = "hash:old password"
    private static let newPassword = "correct horse battery staple"

    private struct Fixture {
        let store = InMemoryStore()
        let hasher = ScriptedPasswordHasher()
        let clock = FixedClock()
        let account: Account
        let session: RecentSession

        init(passwordHash: String? = PasswordSetUseCaseTests.oldHash, verified: Bool = false) {
            account = store.addAccount(email: "mei@example.com", verified: verified, passwordHash: passwordHash)
            session = .signedIn(account)
            store.add(session.session)
        }

        func outcome(_ password: String = PasswordSetUseCaseTests.newPassword, notifier: SecurityNotifier = .off)
            async -> PasswordSetError?
        {
            let useCase = PasswordSetUseCase(store: store, hasher: hasher, notifier: notifier, clock: clock)
            do {
                let change = try await useCase.execute(session: session, password: password, origin: .example)
                #expect(change.accountID == account.id)
                return nil
            } catch {
                return error
            }
        }
    }

    /// A notifier as the server builds it, mail on unless told otherwise.
    private static func notifier(mail: Bool = true, notifications: Bool = true) -> SecurityNotifier {
        var policy = PasskeyPolicy(relyingPartyName: "Example Shop")
        policy.mail = MailPolicy(enabled: mail, securityNotifications: notifications)
        return SecurityNotifier(policy: policy, random: SequentialRandomGenerator())
    }

    // 7 characters; 513 two-byte characters (enough characters, but 1026 bytes).
    @Test(arguments: ["", "seven77", String(repeating: "é", count: 513)])
    func aWeakPasswordIsRefusedBeforeAnythingIsHashed(password: String) async {
        let f = Fixture()
        #expect(await f.outcome(password) == .weakPassword)
        #expect(f.hasher.hashes == 0)
        #expect(f.store.passwordHash(of: f.account.id) == Self.oldHash)
        #expect(f.store.committedTransactions == 0)
    }

    /// Security round 4, finding 1: the session that authorised the change is re-checked in its
    /// transaction; one revoked (or expired) before the change took the account's lock changes
    /// nothing, whether a take-back, a sign-out or another device ended it.
    @Test func aSessionEndedBeforeTheChangeCommittedChangesNothing() async {
        for ending in ["revoked", "expired"] {
            let f = Fixture(verified: true)
            let id = f.session.session.id
            let now = f.clock.now
            if ending == "revoked" {
                f.store.raceNextTransaction { $0.sessions[id]?.revokedAt = now }
            } else {
                f.clock.advance(by: PasskeyPolicy().sessionLifetime)
            }
            #expect(await f.outcome(notifier: Self.notifier()) == .unauthorized, "\(ending)")
            #expect(f.store.passwordHash(of: f.account.id) == Self.oldHash)
            #expect(f.store.outbox.isEmpty)
            #expect(f.store.events.isEmpty)
        }
    }

    @Test func eightCharactersAreEnough() async {
        let f = Fixture()
        #expect(await f.outcome("12345678") == nil)
        #expect(f.store.passwordHash(of: f.account.id) == "hash:12345678")
    }

    @Test func aBusyHasherAnswersHashingBusyAndChangesNothing() async {
        let f = Fixture()
        f.hasher.setBusy(true)
        #expect(await f.outcome() == .hashingBusy)
        #expect(f.store.passwordHash(of: f.account.id) == Self.oldHash)
        #expect(f.store.committedTransactions == 0)
    }

    @Test func aFailingHasherIsAnInternalFailureWithItsCause() async {
        let f = Fixture()
        f.hasher.setFailing(true)
        #expect(await f.outcome() == .internalFailure(cause: FailureCause(PasswordHashingError.failed)))
        #expect(f.store.committedTransactions == 0)
    }

    @Test func theNewHashReplacesTheOld() async {
        let f = Fixture()
        #expect(await f.outcome() == nil)
        let password = f.store.tables.passwords[f.account.id]
        #expect(password?.passwordHash == "hash:" + Self.newPassword)
        #expect(password?.createdAt == f.account.createdAt)
        #expect(password?.updatedAt == f.clock.now)
        #expect(f.hasher.hashes == 1)
    }

    @Test func aPasskeyOnlyAccountGetsItsFirstPassword() async {
        let f = Fixture(passwordHash: nil)
        #expect(await f.outcome() == nil)
        let password = f.store.tables.passwords[f.account.id]
        #expect(password?.passwordHash == "hash:" + Self.newPassword)
        #expect(password?.createdAt == f.clock.now)
    }

    @Test func everyOtherPasswordSessionEndsButTheCallersAndPasskeySessionsStay() async {
        let f = Fixture()
        let otherPassword = f.store.signIn(f.account, at: f.clock.now)
        let passkey = f.store.signIn(f.account, method: .passkey, at: f.clock.now)
        let stranger = f.store.addAccount(passwordHash: "hash:theirs")
        let strangers = f.store.signIn(stranger, at: f.clock.now)
        #expect(await f.outcome() == nil)
        let sessions = f.store.tables.sessions
        #expect(sessions[otherPassword.id]?.revokedAt == f.clock.now)
        #expect(sessions[f.session.session.id]?.revokedAt == nil)
        #expect(sessions[passkey.id]?.revokedAt == nil)
        #expect(sessions[strangers.id]?.revokedAt == nil)
    }

    @Test func thePasswordSetEventNamesTheCallersSession() async throws {
        let f = Fixture()
        #expect(await f.outcome() == nil)
        let event = try #require(f.store.events.only)
        #expect(event.activity == .passwordSet)
        #expect(event.kind.rawValue == "password.set")
        #expect(event.accountID == f.account.id)
        #expect(event.sessionID == f.session.session.id)
        #expect(event.occurredAt == f.clock.now)
        #expect(event.clientAddress == RequestOrigin.example.clientAddress)
        #expect(event.userAgent == RequestOrigin.example.userAgent)
    }

    @Test func theNoticeGoesToAVerifiedAddressWhileNoticesAreOn() async throws {
        let f = Fixture(verified: true)
        #expect(await f.outcome(notifier: Self.notifier()) == nil)
        let mail = try #require(f.store.outbox.only)
        #expect(mail.recipient == EmailAddress("mei@example.com"))
        #expect(mail.createdAt == f.clock.now)
        #expect(mail.body.contains("A password was set for your Example Shop account."))
        #expect(mail.body.contains(RequestOrigin.example.clientAddress))
        #expect(!mail.body.contains(Self.newPassword) && !mail.subject.contains(Self.newPassword))
    }

    @Test func noNoticeForAnUnverifiedAddressOrWithMailOrNoticesOff() async {
        let cases: [(verified: Bool, notifier: SecurityNotifier)] = [
            (verified: false, notifier: Self.notifier()), (verified: true, notifier: Self.notifier(mail: false)),
            (verified: true, notifier: Self.notifier(notifications: false)), (verified: true, notifier: .off),
        ]
        for (verified, notifier) in cases {
            let f = Fixture(verified: verified)
            #expect(await f.outcome(notifier: notifier) == nil)
            #expect(f.store.outbox.isEmpty)
            #expect(f.store.passwordHash(of: f.account.id) == "hash:" + Self.newPassword)
        }
    }

    @Test func anAccountDeletedUnderTheRequestIsUnauthorized() async {
        let f = Fixture()
        f.store.update { $0.cascadeDelete(f.account.id) }
        #expect(await f.outcome(notifier: Self.notifier()) == .unauthorized)
        #expect(f.store.tables.passwords.isEmpty)
        #expect(f.store.events.isEmpty)
        #expect(f.store.outbox.isEmpty)
    }

    @Test func anUnavailableStoreIsUnavailable() async {
        let f = Fixture()
        f.store.failNext(.unavailable)
        #expect(await f.outcome() == .unavailable)
        #expect(f.store.passwordHash(of: f.account.id) == Self.oldHash)
    }

    @Test func aFailureAfterTheHashIsStoredRollsEverythingBack() async {
        let f = Fixture(verified: true)
        let other = f.store.signIn(f.account, at: f.clock.now)
        // The lock and the password's upsert go through; the sessions' revocation fails.
        f.store.failNext(.scripted("x"), afterCalls: 2)
        #expect(await f.outcome(notifier: Self.notifier()) == .internalFailure(cause: .scripted("x")))
        #expect(f.store.passwordHash(of: f.account.id) == Self.oldHash)
        #expect(f.store.tables.sessions[other.id]?.revokedAt == nil)
        #expect(f.store.events.isEmpty)
        #expect(f.store.outbox.isEmpty)
        #expect(f.store.committedTransactions == 0)

        // The failure was the store's, once: the same request goes through afterwards.
        #expect(await f.outcome(notifier: Self.notifier()) == nil)
        #expect(f.store.tables.sessions[other.id]?.revokedAt == f.clock.now)
        #expect(f.store.outbox.count == 1)
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
