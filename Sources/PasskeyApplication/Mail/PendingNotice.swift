package import Foundation
package import PasskeyDomain

/// A security notice prepared before its recipient is known: `SecurityNotifier.mail` renders it
/// with `mail(to:language:)` for the verified address the use case read in its transaction.
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
