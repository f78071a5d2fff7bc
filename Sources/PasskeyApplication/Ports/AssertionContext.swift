package import PasskeyDomain

/// What a sign-in finish needs from storage, read in one round trip without writing anything.
package struct AssertionContext: Sendable {
    /// The challenge, if it is known, unexpired and not consumed when read (else nil). Reading it
    /// does not consume it: `recordAssertion` or `consumeAuthenticationChallenge` does.
    package let challenge: PasskeyAuthenticationChallenge?
    /// The credential named by the response, if registered.
    package let credential: PasskeyCredential?
    /// The account owning the credential.
    package let account: Account?
    /// (v4) Whether the account was locked by the support desk when read.
    package let accountLocked: Bool

    package init(
        challenge: PasskeyAuthenticationChallenge?, credential: PasskeyCredential?, account: Account?,
        accountLocked: Bool = false
    ) {
        self.challenge = challenge
        self.credential = credential
        self.account = account
        self.accountLocked = accountLocked
    }
}
