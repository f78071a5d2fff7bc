internal import PasskeyDomain

/// Why an operator's change to the webhook endpoints was refused.
package enum WebhookManagementError: Error, Hashable, Sendable {
    /// The URL, an event kind or the description is not acceptable; the message says which.
    case invalidRequest(String)
    /// No endpoint has this ID (or it was removed).
    case unknownWebhook
    /// `DATA_ENCRYPTION_KEY` is not set: a secret cannot be stored (503 `webhooks-unavailable`).
    case webhooksUnavailable
    case unavailable
    case internalFailure(cause: FailureCause)
}

extension WebhookManagementError: RepositoryBackedError {
    /// Endpoints belong to no account.
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}

/// A new secret, shown once to whoever asked for it, and the sealed box that is stored.
struct MintedWebhookSecret {
    let secret: WebhookSecret
    let sealed: [UInt8]

    /// 32 bytes from the CSPRNG, sealed for the endpoint `id`.
    init(for id: WebhookID, random: any RandomGenerator, sealer: any SecretSealer) throws(WebhookManagementError) {
        guard let secret = WebhookSecret(bytes: random.bytes(count: WebhookSecret.byteCount)) else {
            throw .internalFailure(
                cause: FailureCause(BrokenInvariant("the random generator gave the wrong number of bytes")))
        }
        do {
            sealed = try sealer.seal(secret.bytes, context: id.description)
        } catch {
            throw .internalFailure(cause: FailureCause(error))
        }
        self.secret = secret
    }
}
