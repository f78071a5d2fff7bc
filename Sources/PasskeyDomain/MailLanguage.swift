/// The language of an account's mails (`account_emails.language`): Japanese when the sign-up
/// request preferred it in `Accept-Language`, English otherwise (spec v3, "Messages").
package enum MailLanguage: String, Hashable, Sendable, CaseIterable {
    case english = "en"
    case japanese = "ja"
}
