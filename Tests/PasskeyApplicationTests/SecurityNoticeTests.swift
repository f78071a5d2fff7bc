import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The security notices of the existing flows (spec v3, "Security notices") on the in-memory
/// store: each change that goes through queues one notice of its kind, rendered for the account's
/// verified address, with the time and the request's client address, in the change's transaction;
/// a refused change, an unverified address, mail off or `SECURITY_NOTIFICATIONS=off` queue none; no
/// notice holds the codes or tokens the flow made. (`SecurityNoticeFlowTests` checks the same end to
/// end on PostgreSQL.)
@Suite struct SecurityNoticeTests {
    private static let address = EmailAddress("mei@example.com")!
    private static let origin = RequestOrigin(clientAddress: "198.51.100.23", userAgent: "Firefox")

    private static func policy(mail: Bool = true, notifications: Bool = true) -> PasskeyPolicy {
        var policy = PasskeyPolicy(relyingPartyName: "Example Shop")
        policy.mail = MailPolicy(enabled: mail, securityNotifications: notifications)
        return policy
    }

    private static func notifier(_ policy: PasskeyPolicy = policy()) -> SecurityNotifier {
        SecurityNotifier(policy: policy, random: SequentialRandomGenerator())
    }

    /// An account whose address is verified (notices go to verified addresses only).
    private static func verifiedAccount(in store: InMemoryStore) -> Account {
        store.addAccount(email: address.value, verified: true, passwordHash: "h")
    }

    /// The one notice queued: its subject and body.
    private static func only(_ store: InMemoryStore) throws -> OutgoingMail {
        try #require(store.outbox.count == 1)
        #expect(store.outbox[0].recipient == address)
        #expect(store.outbox[0].notAfter == nil)
        return store.outbox[0]
    }

    @Test func theNotifierPreparesNothingWhenMailOrNoticesAreOff() {
        let now = Date(timeIntervalSince1970: 1_796_163_342)
        #expect(
            Self.notifier().notice(.passkeyAdded, at: now, from: Self.origin)?.notice.clientAddress == "198.51.100.23")
        #expect(Self.notifier(Self.policy(mail: false)).notice(.passkeyAdded, at: now, from: Self.origin) == nil)
        #expect(
            Self.notifier(Self.policy(notifications: false)).notice(.passkeyAdded, at: now, from: Self.origin) == nil)
        #expect(SecurityNotifier.off.notice(.passkeyAdded, at: now, from: Self.origin) == nil)
    }

    @Test func aDeletedPasskeyQueuesItsNoticeAndARefusedDeletionNone() async throws {
        let store = InMemoryStore()
        let clock = FixedClock()
        let account = store.addAccount(email: Self.address.value, verified: true)
        let useCase = PasskeyDeletionUseCase(store: store, notifier: Self.notifier(), clock: clock)
        let first = DomainFixtures.passkey(accountID: account.id)
        let second = DomainFixtures.passkey(accountID: account.id)
        store.add(first)
        store.add(second)
        try await useCase.execute(
            session: .signedIn(account, method: .passkey, in: store), credentialID: first.id, origin: Self.origin)
        let mail = try Self.only(store)
        #expect(mail.createdAt == clock.now)
        #expect(mail.body.contains("A passkey was deleted") && mail.body.contains("198.51.100.23"))

        // The last way in is refused: nothing is queued with a change that did not happen.
        await #expect(throws: AccountManagementError.lastCredential) {
            try await useCase.execute(
                session: .signedIn(account, method: .passkey, in: store), credentialID: second.id, origin: Self.origin)
        }
        #expect(store.outbox.count == 1)
    }

    @Test func noNoticeWhileNoticesAreOffOrTheAddressIsUnverified() async throws {
        let store = InMemoryStore()
        let verified = store.addAccount(email: Self.address.value, verified: true)
        let unverified = store.addAccount(email: "kai@example.com", verified: false)
        let cases = [
            (verified, Self.notifier(Self.policy(notifications: false))),
            (verified, Self.notifier(Self.policy(mail: false))), (unverified, Self.notifier()),
        ]
        for (account, notifier) in cases {
            let useCase = PasskeyDeletionUseCase(store: store, notifier: notifier, clock: FixedClock())
            let passkey = DomainFixtures.passkey(accountID: account.id)
            store.add(passkey)
            store.add(DomainFixtures.passkey(accountID: account.id))
            try await useCase.execute(
                session: .signedIn(account, method: .passkey, in: store), credentialID: passkey.id, origin: Self.origin)
        }
        #expect(store.outbox.isEmpty)
        #expect(store.events.count == 3)
    }

    @Test func aRemovedPasswordAndADeletedAccountQueueTheirNotices() async throws {
        let store = InMemoryStore()
        let clock = FixedClock()
        let account = Self.verifiedAccount(in: store)
        store.add(
            StoredRecoveryCode(
                id: UUID(), accountID: account.id, digest: [1], source: .user, createdAt: clock.now, expiresAt: nil))
        let removal = PasswordRemovalUseCase(store: store, notifier: Self.notifier(), clock: clock)
        await #expect(throws: AccountManagementError.passkeyNotYetUsed) {
            try await removal.execute(session: .signedIn(account, in: store), origin: Self.origin)
        }
        #expect(store.outbox.isEmpty)
        store.add(DomainFixtures.passkey(accountID: account.id, lastUsedAt: clock.now))
        try await removal.execute(session: .signedIn(account, in: store), origin: Self.origin)
        let removed = try Self.only(store)
        #expect(removed.body.contains("password of your Example Shop account was removed"))

        let deletion = AccountDeletionUseCase(store: store, notifier: Self.notifier(), clock: clock)
        try await deletion.execute(session: .signedIn(account, in: store), origin: Self.origin)
        #expect(store.outbox.count == 2)
        #expect(store.outbox[1].body.contains("deleted"))
        await #expect(throws: AccountManagementError.notFound) {
            try await deletion.execute(session: .signedIn(account, in: store), origin: Self.origin)
        }
        #expect(store.outbox.count == 2)
    }

    @Test func aNewRecoverySetQueuesANoticeThatHoldsNoneOfItsCodes() async throws {
        for language in MailLanguage.allCases {
            let store = InMemoryStore()
            let account = store.addAccount(email: Self.address.value, verified: true, language: language)
            let useCase = RecoveryCodeSetCreationUseCase(
                store: store, random: SequentialRandomGenerator(), digester: PlainDigester(),
                notifier: Self.notifier(), clock: FixedClock())
            let set = try await useCase.execute(session: .signedIn(account, in: store), origin: Self.origin)
            let mail = try Self.only(store)
            for code in set.codes {
                #expect(!mail.body.contains(code) && !mail.subject.contains(code))
                #expect(!mail.body.contains(code.replacingOccurrences(of: "-", with: "")))
            }
        }
    }

    @Test func anOperatorCodeQueuesANoticeFromTheCommandLineNamingNeitherCodeNorIssuer() async throws {
        let store = InMemoryStore()
        _ = Self.verifiedAccount(in: store)
        let issuer = SupportAgentName("Mika (desk 3)")!
        let useCase = OperatorRecoveryCodeUseCase(
            store: store, random: SequentialRandomGenerator(), digester: PlainDigester(),
            policy: Self.policy(), notifier: Self.notifier(), clock: FixedClock())
        let issued = try await useCase.execute(email: "mei@example.com", issuedBy: issuer, origin: .commandLine)
        let body = try Self.only(store).body
        #expect(body.contains("command line"))
        #expect(body.contains("support desk issued a single-use recovery code"))
        #expect(!body.contains(issued.code) && !body.contains("Mika"))
        await #expect(throws: OperatorRecoveryCodeError.unknownEmail) {
            try await useCase.execute(email: "nobody@example.com", issuedBy: issuer, origin: .commandLine)
        }
        #expect(store.outbox.count == 1)
    }

    @Test(arguments: [RecoveryCodeSource.user, .operator])
    func aRecoverySignInQueuesANoticeOfItsKindWithoutCodeOrToken(source: RecoveryCodeSource) async throws {
        let store = InMemoryStore()
        let clock = FixedClock()
        let account = Self.verifiedAccount(in: store)
        let code = RecoveryCode(bytes: Array(0..<10))
        store.add(
            StoredRecoveryCode(
                id: UUID(), accountID: account.id, digest: Array(code.canonical.utf8), source: source,
                createdAt: clock.now, expiresAt: source == .operator ? clock.now.addingTimeInterval(60) : nil))
        let useCase = RecoveryAuthenticationUseCase(
            store: store, rateLimits: InMemoryRateLimitRepository(), digester: PlainDigester(),
            issuer: SessionIssuer(
                tokens: SequentialTokenGenerator(), random: SequentialRandomGenerator(), lifetime: 60),
            policy: Self.policy(), notifier: Self.notifier(), clock: clock, gate: AttemptGate())
        await #expect(throws: RecoveryAuthenticationError.invalidCredentials) {
            _ = try await useCase.execute(
                email: "mei@example.com", code: RecoveryCode(bytes: Array(10..<20)).formatted,
                clientAddress: "198.51.100.0", origin: Self.origin)
        }
        #expect(store.outbox.isEmpty)  // a wrong code changes nothing and tells no one

        let done = try await useCase.execute(
            email: "mei@example.com", code: code.formatted, clientAddress: "198.51.100.0", origin: Self.origin)
        let issued = done.session
        let mail = try Self.only(store)
        let body = mail.body
        #expect(mail.subject.contains(source == .operator ? "signed in with a support code" : "with a recovery code"))
        #expect(body.contains("198.51.100.23"))  // the client, not the limit's key
        for secret in [issued.accessToken, code.formatted, code.canonical] { #expect(!body.contains(secret)) }
    }

    @Test func anAddedPasskeyQueuesItsNoticeAndARefusedOneNone() async throws {
        let registrations = InMemoryPasskeyRegistrationRepository()
        let store = InMemoryStore()
        let verifier = ScriptedCredentialVerifier()
        let clock = FixedClock()
        let account = Self.verifiedAccount(in: store)
        let useCase = PasskeyRegistrationFinishUseCase(
            registrations: registrations, store: store, verifier: verifier, names: FixedAuthenticatorNames([:]),
            policy: Self.policy(), notifier: Self.notifier(), clock: clock)
        func finish(_ credentialID: [UInt8]) async throws(PasskeyRegistrationFinishError) {
            let challenge = PasskeyRegistrationChallenge(
                accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                expiresAt: clock.now.addingTimeInterval(300))
            try? await registrations.saveRegistrationChallenge(challenge)
            verifier.acceptRegistrations(
                as: ScriptedCredentialVerifier.verifiedRegistration(
                    credentialID: DomainFixtures.credentialID(credentialID), backupState: false))
            _ = try await useCase.execute(
                session: .signedIn(account, at: clock.now, in: store), challengeID: challenge.id,
                response: RegistrationResponse(
                    credentialID: credentialID, clientDataJSON: [0x7B, 0x7D], attestationObject: [0xA0],
                    transports: []),
                name: nil, residentKey: true, origin: Self.origin)
        }
        try await finish([1, 2, 3])
        #expect(try Self.only(store).body.contains("A passkey was added to your Example Shop account."))
        await #expect(throws: PasskeyRegistrationFinishError.credentialExists) { try await finish([1, 2, 3]) }
        #expect(store.outbox.count == 1)
    }
}
