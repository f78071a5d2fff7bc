package import Foundation

/// The rules of verified email and mail (spec v3, "Email addresses and mail"), from configuration.
/// With mail off (`MAIL_URL` unset) the email endpoints answer 503 `mail-unavailable`, no code is
/// mailed on sign-up and no notice is queued.
package struct MailPolicy: Sendable, Hashable {
    /// `MAIL_URL` is set: a transport exists and the background sender runs.
    package var enabled: Bool
    /// `EMAIL_CODE_LIFETIME_SECONDS`.
    package var codeLifetime: TimeInterval
    /// `EMAIL_SENDS_PER_HOUR`: mails with a code per recipient address per hour.
    package var sendsPerHour: Int
    /// `SECURITY_NOTIFICATIONS`: notices of security changes go to verified addresses.
    package var securityNotifications: Bool
    /// Wrong tries after which a code is void.
    package var maximumCodeTries: Int = 5

    package init(
        enabled: Bool, codeLifetime: TimeInterval = 600, sendsPerHour: Int = 5, securityNotifications: Bool = true
    ) {
        self.enabled = enabled
        self.codeLifetime = codeLifetime
        self.sendsPerHour = sendsPerHour
        self.securityNotifications = securityNotifications
    }

    /// Mail off: what tests and the commands without a transport use.
    package static let off = MailPolicy(enabled: false)
}
