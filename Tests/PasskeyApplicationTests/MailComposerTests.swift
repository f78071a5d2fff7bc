import Foundation
import PasskeyApplication
import PasskeyDomain
import Testing

/// The mails' words (spec v3, "Messages" and "Security notices"): every purpose and every notice
/// kind in both languages, the code alone on its line, UTC times, and nothing secret in a notice.
@Suite struct MailComposerTests {
    private static let composer = MailComposer(relyingPartyName: "Example Shop")
    private static let recipient = EmailAddress("aoi@example.com")!
    /// 2026-12-01 22:15:42 UTC.
    private static let occurredAt = Date(timeIntervalSince1970: 1_796_163_342)

    private static let kinds: [SecurityNotice.Kind] = [
        .passkeyAdded, .passkeyDeleted, .passwordSet, .passwordRemoved, .recoveryCodesCreated,
        .recoverySignIn(.recoveryCode), .recoverySignIn(.operatorCode), .recoverySignIn(.email),
        .emailChanged, .accountDeleted,
    ]

    private static func notice(_ kind: SecurityNotice.Kind, from clientAddress: String = "198.51.100.7")
        -> SecurityNotice
    {
        SecurityNotice(kind: kind, occurredAt: occurredAt, clientAddress: clientAddress)
    }

    @Test(arguments: EmailCodePurpose.allCases, MailLanguage.allCases)
    func aCodeMailStandsTheCodeAloneOnItsLineWithItsLifetime(purpose: EmailCodePurpose, language: MailLanguage) {
        let now = Self.occurredAt
        let mail = Self.composer.codeMail(
            id: UUID(), purpose: purpose, code: "048213", to: Self.recipient, language: language, now: now,
            expiresAt: now.addingTimeInterval(600))
        let lines = mail.body.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.contains("048213") } == ["048213"])
        #expect(mail.body.contains("10"))  // minutes valid
        #expect(mail.body.contains("Example Shop"))
        #expect(mail.notAfter == now.addingTimeInterval(600))
        #expect(mail.recipient == Self.recipient)
        #expect(mail.body.hasSuffix("\n"))
        switch language {
        case .english:
            #expect(mail.subject.allSatisfy { $0.isASCII })
            #expect(mail.body.contains("If you did not ask for it"))
            #expect(lines.allSatisfy { $0.count <= 78 })
        case .japanese:
            #expect(!mail.subject.allSatisfy { $0.isASCII })
            #expect(mail.body.contains("お心当たりがない場合"))
            #expect(mail.body.contains("10分"))
        }
    }

    @Test func eachPurposeSaysWhatItsCodeIsFor() {
        func body(_ purpose: EmailCodePurpose) -> String {
            Self.composer.codeMail(
                id: UUID(), purpose: purpose, code: "111111", to: Self.recipient, language: .english,
                now: Self.occurredAt, expiresAt: Self.occurredAt.addingTimeInterval(300)
            ).body
        }
        #expect(body(.verify).contains("verify your email address"))
        #expect(body(.change).contains("make this the email address"))
        #expect(body(.signIn).contains("sign in to Example Shop by email"))
        #expect(Set(EmailCodePurpose.allCases.map(body)).count == EmailCodePurpose.allCases.count)
    }

    @Test(arguments: MailLanguage.allCases)
    func everyNoticeKindSaysWhatWhenFromWhereAndWhatToDo(language: MailLanguage) {
        var bodies: Set<String> = []
        var subjects: Set<String> = []
        for kind in Self.kinds {
            let mail = Self.composer.notice(id: UUID(), Self.notice(kind), to: Self.recipient, language: language)
            #expect(mail.body.contains("2026-12-01 22:15 UTC"), "\(kind)")
            #expect(mail.body.contains("198.51.100.7"), "\(kind)")
            #expect(mail.body.contains("Example Shop"), "\(kind)")
            #expect(mail.notAfter == nil)
            #expect(mail.body.hasSuffix("\n"))
            #expect(mail.createdAt == Self.occurredAt)
            switch language {
            case .english:
                #expect(mail.body.contains("If this was not you"), "\(kind)")
                #expect(mail.body.contains("support"), "\(kind)")
                #expect(mail.body.split(separator: "\n").allSatisfy { $0.count <= 78 }, "\(kind)")
            case .japanese:
                #expect(mail.body.contains("お心当たりがない場合"), "\(kind)")
                #expect(!mail.subject.allSatisfy { $0.isASCII }, "\(kind)")
            }
            bodies.insert(mail.body)
            subjects.insert(mail.subject)
        }
        #expect(bodies.count == Self.kinds.count)  // each kind says something of its own
        #expect(subjects.count == Self.kinds.count)
    }

    /// (v4) The support desk's notices: from the desk (no address), each its own words, and what to
    /// do when the user did not ask for it (not the advice to sign in and undo the change).
    @Test(arguments: MailLanguage.allCases)
    func aSupportDeskNoticeSaysTheDeskDidIt(language: MailLanguage) {
        let kinds: [SecurityNotice.Kind] = [
            .accountLocked, .accountUnlocked, .sessionsEndedBySupport, .passkeyDeletedBySupport,
            // A code the desk issued is support's act too: "undo the change" cannot take it back.
            .recoveryCodeIssued,
        ]
        var subjects: Set<String> = []
        for kind in kinds {
            let notice = SecurityNotice(kind: kind, occurredAt: Self.occurredAt, clientAddress: nil)
            let mail = Self.composer.notice(id: UUID(), notice, to: Self.recipient, language: language)
            #expect(mail.body.contains("2026-12-01 22:15 UTC"), "\(kind)")
            switch language {
            case .english:
                #expect(mail.body.contains("From: the Example Shop support desk"), "\(kind)")
                #expect(mail.body.contains("If you did not ask the Example Shop support desk"), "\(kind)")
                #expect(!mail.body.contains("undo the change"), "\(kind)")
                #expect(mail.body.split(separator: "\n").allSatisfy { $0.count <= 78 }, "\(kind)")
            case .japanese:
                #expect(mail.body.contains("接続元: Example Shop のサポート窓口"), "\(kind)")
                #expect(mail.body.contains("サポート窓口へのご依頼にお心当たりがない場合"), "\(kind)")
                #expect(!mail.body.contains("元に戻"), "\(kind)")
            }
            subjects.insert(mail.subject)
        }
        #expect(subjects.count == kinds.count)
    }

    @Test func theOrdinaryNoticeAdvisesSigningInAndEndingTheOtherSessions() {
        let mail = Self.composer.notice(
            id: UUID(), Self.notice(.passkeyAdded), to: Self.recipient, language: .english)
        #expect(mail.body.contains("A passkey was added"))
        #expect(mail.body.contains("sign in to Example Shop now, end the other sessions"))
    }

    /// Security round 4, finding 10: the notice went to the old mailbox naming the new address.
    @Test(arguments: MailLanguage.allCases)
    func theEmailChangedNoticeGoesToTheOldAddressWithoutNamingTheNewOne(language: MailLanguage) {
        let mail = Self.composer.notice(
            id: UUID(), Self.notice(.emailChanged), to: Self.recipient, language: language)
        #expect(!mail.body.contains("aoi.new"))
        #expect(!mail.body.contains("example.org"))
        #expect(mail.recipient == Self.recipient)
    }

    @Test func aClientAddressCannotWriteLinesOfItsOwn() {
        let mail = Self.composer.notice(
            id: UUID(), Self.notice(.passwordRemoved, from: "203.0.113.9\r\nCall +1 555 0100 now"),
            to: Self.recipient, language: .english)
        #expect(!mail.body.contains("\r"))
        #expect(mail.body.split(separator: "\n").contains { $0.hasPrefix("From: 203.0.113.9") })
        #expect(!mail.body.split(separator: "\n").contains { $0.hasPrefix("Call") })
    }

    @Test func aLongServiceNameIsWrappedWithinTheLineLength() {
        let composer = MailComposer(relyingPartyName: "The Very Long Name Of An Online Service For Testing Purposes")
        let mail = composer.notice(
            id: UUID(), Self.notice(.recoveryCodesCreated), to: Self.recipient, language: .english)
        #expect(mail.body.split(separator: "\n").allSatisfy { $0.count <= 78 })
        #expect(mail.body.contains("New recovery codes were created"))
    }

    @Test func timesAreWrittenInUTCToTheMinute() {
        #expect(MailTimestamp.format(Self.occurredAt) == "2026-12-01 22:15 UTC")
        #expect(MailTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00 UTC")
        #expect(MailTimestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29 00:00 UTC")
        #expect(MailTimestamp.format(Date(timeIntervalSince1970: 1_709_251_199)) == "2024-02-29 23:59 UTC")
        #expect(MailTimestamp.format(Date(timeIntervalSince1970: -60)) == "1969-12-31 23:59 UTC")
    }
}
