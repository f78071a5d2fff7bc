package import PasskeyDomain

/// A code and the mail that carries it, stored in the transaction of the change that causes them
/// (sign-up: the `verify` code to the new account's address).
package struct EmailCodeMail: Hashable, Sendable {
    package let draft: EmailCodeDraft
    package let mail: OutgoingMail

    package init(draft: EmailCodeDraft, mail: OutgoingMail) {
        self.draft = draft
        self.mail = mail
    }
}
