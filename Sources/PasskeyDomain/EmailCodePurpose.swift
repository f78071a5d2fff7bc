/// What a mailed code proves (`email_codes.purpose`): one purpose each, never interchangeable.
package enum EmailCodePurpose: String, Hashable, Sendable, CaseIterable {
    /// Verify the account's address.
    case verify
    /// Confirm a new address for the account (the code goes to the new address).
    case change
    /// Sign in by email (recovery).
    case signIn = "sign-in"
}
