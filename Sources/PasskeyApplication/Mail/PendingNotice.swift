package import Foundation
package import PasskeyDomain

/// A security notice to queue with the change that causes it. The repository that makes the
/// change reads the account's verified address and language in the same transaction and calls
/// `mail(to:language:)`, so it stores a rendered mail without knowing any wording; an account
/// without a verified address gets nothing.
package struct PendingNotice: Sendable {
    package let id: UUID
    package let notice: SecurityNotice
    let composer: MailComposer

    package init(id: UUID, notice: SecurityNotice, composer: MailComposer) {
        self.id = id
        self.notice = notice
        self.composer = composer
    }

    /// The notice rendered for the account's verified address, in its language.
    package func mail(to recipient: EmailAddress, language: MailLanguage) -> OutgoingMail {
        composer.notice(id: id, notice, to: recipient, language: language)
    }
}
