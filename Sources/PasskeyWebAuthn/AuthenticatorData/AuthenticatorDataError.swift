/// Why bytes are not well-formed authenticator data.
package enum AuthenticatorDataError: Error, Hashable, Sendable {
    case truncated
    /// AT or ED set without the data, data present without the flag, or bytes left over.
    case inconsistentFlags
    case trailingBytes
    case invalidCredentialPublicKey
    case invalidExtensions
}
