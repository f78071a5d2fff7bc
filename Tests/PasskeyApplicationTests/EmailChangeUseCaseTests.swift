import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Changing the account's address (`PUT /v1/account/email`, then `POST /v1/account/email/confirm`),
/// branch by branch on the in-memory store: the code goes to the new address and nothing changes
/// until it comes back; the confirmation makes the new address the account's, verified, and
/// tells the old one; wrong codes count like wrong passwords; an address taken meanwhile changes
/// nothing and leaves the code unused.
@Suite struct EmailChangeUseCaseTests {
    private static let oldAddress = EmailAddress("hanako@example.com")!
    private static let newAddress = EmailAddress("hanako.new@example.com")!

    private struct Fixture {
        let store = InMemoryStore()
        let clock = FixedClock()
        let limits: InMemoryRateLimitRepository
        let random = SequentialRandomGenerator()
        let account = DomainFixtures.account()
        let session: RecentSession
        var policy = PasskeyPolicy(relyingPartyName: "Example Shop", passwordFailuresPerEmail: 50)

        init(mail: MailPolicy = MailPolicy(enabled: true, sendsPerHour: 3), verified: Bool = true) {
            policy.mail = mail
            limits = InMemoryRateLimitRepository(clock: { [clock] in clock.now })
            store.addAccount(
                account, email: EmailChangeUseCaseTests.oldAddress.value, verified: verified, passwordHash: "hash:x")
            session = .signedIn(account)
            store.add(session.session)
        }

        var useCase: EmailChangeUseCase {
            EmailChangeUseCase(
                store: store, accounts: store, rateLimits: limits,
                maker: EmailCodeMaker(random: random, digester: PlainDigester()),
                composer: MailComposer(relyingPartyName: "Example Shop"),
                notifier: SecurityNotifier(policy: policy, random: random), policy: policy, clock: clock,
                gate: AttemptGate())
        }

        /// The code of the newest mail that carries one.
        var mailedCode: String? {
            store.outbox.last { $0.notAfter != nil }?.body.split(separator: "\n").map(String.init)
                .first { $0.count == 6 && Int($0) != nil }
        }

        /// The account's address as stored.
        var storedEmail: AccountEmail? { store.tables.emails[account.id] }

        func request(_ email: String = EmailChangeUseCaseTests.newAddress.value) async -> EmailFlowError? {
            do {
                try await useCase.request(session: session, email: email, clientAddress: "192.0.2.1")
                return nil
            } catch {
                return error
            }
        }

        func confirm(_ code: String) async -> EmailFlowError? {
            do {
                let changed = try await useCase.confirm(
                    session: session.active, code: code, clientAddress: "192.0.2.1", origin: .example)
                #expect(changed.summary.account.id == account.id)
                #expect(changed.summary.email == storedEmail?.email)
                #expect(changed.summary.emailVerified)
                return nil
            } catch {
                return error
            }
        }
    }

    /// A six-digit code that is not `code`.
    private static func wrong(_ code: String) -> String { code == "999999" ? "999998" : "999999" }

    @Test func aRequestMailsACodeToTheNewAddressAndChangesNothingYet() async throws {
        let f = Fixture()
        #expect(await f.request() == nil)
        let mail = try #require(f.store.outbox.count == 1 ? f.store.outbox.first : nil)
        #expect(mail.recipient.value == Self.newAddress.value)
        #expect(mail.recipient != Self.oldAddress)
        #expect(mail.subject.contains("confirm your new email address"))
        #expect(mail.notAfter == f.clock.now.addingTimeInterval(600))
        #expect(f.mailedCode != nil)
        let code = try #require(f.store.tables.emailCodes.count == 1 ? f.store.tables.emailCodes.first : nil)
        #expect(code.draft.purpose == .change)
        #expect(code.email == Self.newAddress)
        #expect(code.usedAt == nil)
        // Nothing changes until the code comes back.
        #expect(f.storedEmail?.email.value == Self.oldAddress.value)
        #expect(f.storedEmail?.verifiedAt == f.account.createdAt)
        #expect(f.store.events.isEmpty)
    }

    @Test func aRequestForNoAddressIsAnInvalidRequest() async {
        let f = Fixture()
        #expect(await f.request("not an address") == .invalidRequest(field: "email"))
        #expect(f.store.outbox.isEmpty)
    }

    @Test func anAddressAnotherAccountHoldsIsTakenAndNothingIsMailed() async {
        let f = Fixture()
        f.store.addAccount(email: "taken@example.com")
        #expect(await f.request("Taken@Example.com") == .emailTaken)
        #expect(f.store.outbox.isEmpty)
        #expect(f.store.tables.emailCodes.isEmpty)
    }

    @Test func theSendingLimitOfTheNewAddressAnswersRetryAfter() async {
        let f = Fixture(mail: MailPolicy(enabled: true, sendsPerHour: 2))
        #expect(await f.request() == nil)
        #expect(await f.request() == nil)
        f.clock.advance(by: 600)
        #expect(await f.request() == .rateLimited(retryAfter: 3000))
        #expect(f.store.outbox.count == 2)
        // The limit is the recipient's: another new address still gets its code.
        #expect(await f.request("hanako.other@example.com") == nil)
        f.clock.advance(by: 3000)
        #expect(await f.request() == nil)
    }

    @Test func theRightCodeMakesTheNewAddressTheAccountsAndTellsTheOldOne() async throws {
        let f = Fixture(verified: true)
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        #expect(await f.confirm(code) == nil)

        #expect(f.storedEmail?.email.value == Self.newAddress.value)
        #expect(f.storedEmail?.verifiedAt == f.clock.now)
        #expect(f.store.tables.emailCodes.first?.usedAt == f.clock.now)
        #expect(f.limits.countedAttempts == 0)
        let event = try #require(f.store.events.count == 1 ? f.store.events.first : nil)
        #expect(event.activity == .emailChanged)
        #expect(event.kind.rawValue == "email.changed")
        #expect(event.sessionID == f.session.session.id)
        #expect(event.occurredAt == f.clock.now)
        #expect(event.clientAddress == RequestOrigin.example.clientAddress)

        #expect(f.store.outbox.count == 2)
        let notice = try #require(f.store.outbox.last)
        #expect(notice.recipient.value == Self.oldAddress.value)
        #expect(notice.notAfter == nil)
        #expect(notice.subject.contains("your email address was changed"))
        #expect(!notice.body.contains(Self.newAddress.value), "the old mailbox learns the new address")
        #expect(!notice.body.contains(code))

        // Used once: the same code does nothing more.
        #expect(await f.confirm(code) == .invalidCode)
        #expect(f.store.events.count == 1)
    }

    // (old address verified, notices on)
    @Test(arguments: [(false, true), (true, false)])
    func noNoticeWhenTheOldAddressWasUnverifiedOrNoticesAreOff(verified: Bool, notices: Bool) async throws {
        let f = Fixture(mail: MailPolicy(enabled: true, securityNotifications: notices), verified: verified)
        #expect(await f.request() == nil)
        #expect(await f.confirm(try #require(f.mailedCode)) == nil)
        #expect(f.storedEmail?.email.value == Self.newAddress.value)
        #expect(f.store.outbox.count == 1)  // the code's mail only
        #expect(f.store.events.map(\.activity) == [.emailChanged])
    }

    @Test func aNewRequestVoidsTheEarlierCode() async throws {
        let f = Fixture()
        #expect(await f.request("hanako.first@example.com") == nil)
        let first = try #require(f.mailedCode)
        #expect(await f.request() == nil)
        let second = try #require(f.mailedCode)
        #expect(first != second)
        #expect(await f.confirm(first) == .invalidCode)
        #expect(await f.confirm(second) == nil)
        #expect(f.storedEmail?.email.value == Self.newAddress.value)
    }

    @Test func fourWrongCodesAreCountedAndLeaveTheCodeWorking() async throws {
        let f = Fixture()
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        for _ in 0..<4 { #expect(await f.confirm(Self.wrong(code)) == .invalidCode) }
        #expect(f.limits.countedAttempts == 4)
        #expect(f.store.tables.emailCodes.first?.failedTries == 4)
        #expect(f.storedEmail?.email.value == Self.oldAddress.value)
        #expect(await f.confirm(code) == nil)
        #expect(f.limits.countedAttempts == 4)  // the right one is given back, the wrong ones stay
    }

    @Test func theFifthWrongCodeVoidsTheCode() async throws {
        let f = Fixture()
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        for _ in 0..<5 { #expect(await f.confirm(Self.wrong(code)) == .invalidCode) }
        #expect(f.limits.countedAttempts == 5)
        #expect(f.store.tables.emailCodes.first?.voidedAt == f.clock.now)
        #expect(await f.confirm(code) == .invalidCode)
        #expect(f.storedEmail?.email.value == Self.oldAddress.value)
        #expect(f.store.events.isEmpty)
    }

    @Test func anAddressTakenBeforeTheConfirmationChangesNothingAndLeavesTheCodeUnused() async throws {
        let f = Fixture(verified: true)
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        let rival = DomainFixtures.account()
        f.store.raceNextTransaction { tables in
            tables.accounts[rival.id] = rival
            tables.emails[rival.id] = AccountEmail(accountID: rival.id, email: EmailChangeUseCaseTests.newAddress)
        }
        #expect(await f.confirm(code) == .emailTaken)
        let stored = try #require(f.store.tables.emailCodes.first)
        #expect(stored.usedAt == nil && stored.voidedAt == nil && stored.failedTries == 0)
        #expect(f.storedEmail?.email.value == Self.oldAddress.value)
        #expect(f.store.events.isEmpty)
        #expect(f.store.outbox.count == 1)  // no notice for a change that did not happen
        #expect(f.limits.countedAttempts == 0)

        // The code is still good: once the address is free again, it confirms.
        f.store.update { $0.cascadeDelete(rival.id) }
        #expect(await f.confirm(code) == nil)
        #expect(f.storedEmail?.email.value == Self.newAddress.value)
    }

    @Test func anAccountDeletedUnderTheRequestIsUnauthorized() async {
        let f = Fixture()
        f.store.update { $0.cascadeDelete(f.account.id) }
        #expect(await f.request() == .unauthorized)
        #expect(await f.confirm("123456") == .unauthorized)
        #expect(f.store.outbox.isEmpty)
    }

    @Test func withMailOffNothingRuns() async throws {
        let f = Fixture(mail: .off)
        #expect(await f.request() == .mailUnavailable)
        #expect(await f.confirm("123456") == .mailUnavailable)
        #expect(throws: EmailFlowError.mailUnavailable) { try f.useCase.checkEnabled() }
        #expect(f.store.tables.emailCodes.isEmpty)
        #expect(f.store.outbox.isEmpty)
        #expect(f.limits.countedAttempts == 0)
    }
}
