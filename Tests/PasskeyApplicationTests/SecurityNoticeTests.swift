import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The security notices of the existing flows (spec v3, "Security notices") on in-memory fakes:
/// each change that goes through hands its repository one notice of its kind, with the time and
/// the request's client address; a refused change, mail off or `SECURITY_NOTIFICATIONS=off`
/// hands none; no notice holds the codes or tokens the flow made. (That only verified addresses
/// get them, and that a rolled-back change leaves no row, is `SecurityNoticeFlowTests`' on
/// PostgreSQL.)
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

    /// The one notice queued: its kind, time and address, and its English body.
    private static func only(_ queued: [QueuedNotice], of account: Account) throws -> (SecurityNotice, String) {
        try #require(queued.count == 1)
        #expect(queued[0].accountID == account.id)
        return (queued[0].pending.notice, queued[0].mail(to: address).body)
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
        let passkeys = InMemoryPasskeyCredentialRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let useCase = PasskeyDeletionUseCase(passkeys: passkeys, notifier: Self.notifier(), clock: clock)
        let first = DomainFixtures.passkey(accountID: account.id)
        let second = DomainFixtures.passkey(accountID: account.id)
        passkeys.seed(first)
        passkeys.seed(second)
        try await useCase.execute(
            session: .signedIn(account, method: .passkey), credentialID: first.id, origin: Self.origin)
        let (notice, body) = try Self.only(passkeys.queuedNotices, of: account)
        #expect(notice.kind == .passkeyDeleted)
        #expect(notice.occurredAt == clock.now)
        #expect(body.contains("A passkey was deleted") && body.contains("198.51.100.23"))

        // The last way in is refused: nothing is queued with a change that did not happen.
        await #expect(throws: AccountManagementError.lastCredential) {
            try await useCase.execute(
                session: .signedIn(account, method: .passkey), credentialID: second.id, origin: Self.origin)
        }
        #expect(passkeys.queuedNotices.count == 1)
    }

    @Test func noNoticeWhileNoticesAreOff() async throws {
        let passkeys = InMemoryPasskeyCredentialRepository()
        let account = DomainFixtures.account()
        for notifier in [Self.notifier(Self.policy(notifications: false)), Self.notifier(Self.policy(mail: false))] {
            let useCase = PasskeyDeletionUseCase(passkeys: passkeys, notifier: notifier, clock: FixedClock())
            let passkey = DomainFixtures.passkey(accountID: account.id)
            passkeys.seed(passkey)
            passkeys.seed(DomainFixtures.passkey(accountID: account.id))
            try await useCase.execute(
                session: .signedIn(account, method: .passkey), credentialID: passkey.id, origin: Self.origin)
        }
        #expect(passkeys.queuedNotices.isEmpty)
    }

    @Test func aRemovedPasswordAndADeletedAccountQueueTheirNotices() async throws {
        let accounts = InMemoryAccountRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        try await accounts.createPasswordAccount(
            account, email: DomainFixtures.email("mei@example.com", accountID: account.id),
            password: PasswordCredential(
                accountID: account.id, passwordHash: "h", createdAt: clock.now, updatedAt: clock.now))
        let removal = PasswordRemovalUseCase(accounts: accounts, notifier: Self.notifier(), clock: clock)
        accounts.setRemovalPreconditions(passkeyUsed: false, recoverySetUp: true)
        await #expect(throws: AccountManagementError.passkeyNotYetUsed) {
            try await removal.execute(session: .signedIn(account), origin: Self.origin)
        }
        #expect(accounts.queuedNotices.isEmpty)
        accounts.setRemovalPreconditions(passkeyUsed: true, recoverySetUp: true)
        try await removal.execute(session: .signedIn(account), origin: Self.origin)
        let (removed, body) = try Self.only(accounts.queuedNotices, of: account)
        #expect(removed.kind == .passwordRemoved)
        #expect(body.contains("password of your Example Shop account was removed"))

        let deletion = AccountDeletionUseCase(accounts: accounts, notifier: Self.notifier(), clock: clock)
        try await deletion.execute(session: .signedIn(account), origin: Self.origin)
        #expect(accounts.queuedNotices.map(\.kind) == [.passwordRemoved, .accountDeleted])
        await #expect(throws: AccountManagementError.notFound) {
            try await deletion.execute(session: .signedIn(account), origin: Self.origin)
        }
        #expect(accounts.queuedNotices.count == 2)
    }

    @Test func aNewRecoverySetQueuesANoticeThatHoldsNoneOfItsCodes() async throws {
        let codes = InMemoryRecoveryCodeRepository()
        let account = DomainFixtures.account()
        codes.register(account, normalizedEmail: "mei@example.com")
        let useCase = RecoveryCodeSetCreationUseCase(
            recoveryCodes: codes, random: SequentialRandomGenerator(), digester: PlainDigester(),
            notifier: Self.notifier(), clock: FixedClock())
        let set = try await useCase.execute(session: .signedIn(account), origin: Self.origin)
        let (notice, _) = try Self.only(codes.queuedNotices, of: account)
        #expect(notice.kind == .recoveryCodesCreated)
        for language in MailLanguage.allCases {
            let mail = codes.queuedNotices[0].mail(to: Self.address, language: language)
            for code in set.codes {
                #expect(!mail.body.contains(code) && !mail.subject.contains(code))
                #expect(!mail.body.contains(code.replacingOccurrences(of: "-", with: "")))
            }
        }
    }

    @Test func anOperatorCodeQueuesANoticeFromTheCommandLineNamingNeitherCodeNorIssuer() async throws {
        let codes = InMemoryRecoveryCodeRepository()
        let account = DomainFixtures.account()
        codes.register(account, normalizedEmail: "mei@example.com")
        let issuer = SupportAgentName("Mika (desk 3)")!
        let useCase = OperatorRecoveryCodeUseCase(
            recoveryCodes: codes, random: SequentialRandomGenerator(), digester: PlainDigester(),
            policy: Self.policy(), notifier: Self.notifier(), clock: FixedClock())
        let issued = try await useCase.execute(email: "mei@example.com", issuedBy: issuer, origin: .commandLine)
        let (notice, body) = try Self.only(codes.queuedNotices, of: account)
        #expect(notice.kind == .recoveryCodeIssued)
        #expect(notice.clientAddress == "command line")
        #expect(body.contains("support desk issued a single-use recovery code"))
        #expect(!body.contains(issued.code) && !body.contains("Mika"))
        await #expect(throws: OperatorRecoveryCodeError.unknownEmail) {
            try await useCase.execute(email: "nobody@example.com", issuedBy: issuer, origin: .commandLine)
        }
        #expect(codes.queuedNotices.count == 1)
    }

    @Test(arguments: [RecoveryCodeSource.user, .operator])
    func aRecoverySignInQueuesANoticeOfItsKindWithoutCodeOrToken(source: RecoveryCodeSource) async throws {
        let codes = InMemoryRecoveryCodeRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        codes.register(account, normalizedEmail: "mei@example.com")
        let code = RecoveryCode(bytes: Array(0..<10))
        _ = try await codes.replaceCodes(
            accountID: account.id,
            with: [
                StoredRecoveryCode(
                    id: UUID(), accountID: account.id, digest: Array(code.canonical.utf8), source: source,
                    createdAt: clock.now, expiresAt: source == .operator ? clock.now.addingTimeInterval(60) : nil)
            ])
        let useCase = RecoveryAuthenticationUseCase(
            recoveryCodes: codes, rateLimits: InMemoryRateLimitRepository(), digester: PlainDigester(),
            issuer: SessionIssuer(
                tokens: SequentialTokenGenerator(), random: SequentialRandomGenerator(), lifetime: 60),
            policy: Self.policy(), notifier: Self.notifier(), clock: clock, gate: AttemptGate())
        await #expect(throws: RecoveryAuthenticationError.invalidCredentials) {
            _ = try await useCase.execute(
                email: "mei@example.com", code: RecoveryCode(bytes: Array(10..<20)).formatted,
                clientAddress: "198.51.100.0", origin: Self.origin)
        }
        #expect(codes.queuedNotices.isEmpty)  // a wrong code changes nothing and tells no one

        let (issued, _) = try await useCase.execute(
            email: "mei@example.com", code: code.formatted, clientAddress: "198.51.100.0", origin: Self.origin)
        let (notice, body) = try Self.only(codes.queuedNotices, of: account)
        #expect(notice.kind == .recoverySignIn(source == .operator ? .operatorCode : .recoveryCode))
        #expect(notice.clientAddress == "198.51.100.23")  // the client, not the limit's key
        for secret in [issued.accessToken, code.formatted, code.canonical] { #expect(!body.contains(secret)) }
    }

    @Test func anAddedPasskeyQueuesItsNoticeAndARefusedOneNone() async throws {
        let registrations = InMemoryPasskeyRegistrationRepository()
        let verifier = ScriptedCredentialVerifier()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let useCase = PasskeyRegistrationFinishUseCase(
            registrations: registrations, verifier: verifier, names: FixedAuthenticatorNames([:]),
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
                session: .signedIn(account, at: clock.now), challengeID: challenge.id,
                response: RegistrationResponse(
                    credentialID: credentialID, clientDataJSON: [0x7B, 0x7D], attestationObject: [0xA0],
                    transports: []),
                name: nil, residentKey: true, origin: Self.origin)
        }
        try await finish([1, 2, 3])
        let (notice, body) = try Self.only(registrations.queuedNotices, of: account)
        #expect(notice.kind == .passkeyAdded)
        #expect(body.contains("A passkey was added to your Example Shop account."))
        registrations.failNextInsert(.conflict(.credentialExists))
        await #expect(throws: PasskeyRegistrationFinishError.credentialExists) { try await finish([4, 5, 6]) }
        #expect(registrations.queuedNotices.count == 1)
    }
}
