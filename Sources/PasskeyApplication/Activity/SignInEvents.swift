/// The two events a sign-in by email address can write, made before the repository knows the
/// account: `success` (`sign-in`, with the session it creates) or, when the account exists and
/// the secret was wrong, `failure` (`sign-in.failed`). At most one of them is written.
package struct SignInEvents: Hashable, Sendable {
    package let success: PendingAccountEvent
    package let failure: PendingAccountEvent

    package init(success: PendingAccountEvent, failure: PendingAccountEvent) {
        self.success = success
        self.failure = failure
    }
}
