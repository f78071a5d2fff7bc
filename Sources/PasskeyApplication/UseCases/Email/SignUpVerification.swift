package import Foundation
package import PasskeyDomain

/// The `verify` code a new account's address is mailed in its creating transaction (spec v3,
/// "When codes are sent"); nothing with mail off.
package struct SignUpVerification: Sendable {
    let maker: EmailCodeMaker
    let composer: MailComposer
    let policy: MailPolicy

    package init(maker: EmailCodeMaker, composer: MailComposer, policy: MailPolicy) {
        self.maker = maker
        self.composer = composer
        self.policy = policy
    }

    /// The code and its mail, or nil with mail off.
    package func mail(to email: EmailAddress, language: MailLanguage, now: Date) -> EmailCodeMail? {
        guard policy.enabled else { return nil }
        let (code, draft) = maker.make(purpose: .verify, now: now, lifetime: policy.codeLifetime)
        let mail = composer.codeMail(
            id: draft.id, purpose: .verify, code: code, to: email, language: language, now: now,
            expiresAt: draft.expiresAt)
        return EmailCodeMail(draft: draft, mail: mail)
    }
}
