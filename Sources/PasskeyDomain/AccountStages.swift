/// The accounts by migration stage now: ① password only, ② password and passkey, ③ passkey only.
/// `total` counts every account (one with neither, e.g. signed up by email and not yet past
/// its first sign-in, is in no stage); `emailVerified` those whose address is proven.
package struct AccountStages: Hashable, Sendable {
    package var total: Int
    package var passwordOnly: Int
    package var passwordAndPasskey: Int
    package var passkeyOnly: Int
    package var emailVerified: Int

    package init(total: Int, passwordOnly: Int, passwordAndPasskey: Int, passkeyOnly: Int, emailVerified: Int) {
        self.total = total
        self.passwordOnly = passwordOnly
        self.passwordAndPasskey = passwordAndPasskey
        self.passkeyOnly = passkeyOnly
        self.emailVerified = emailVerified
    }
}
