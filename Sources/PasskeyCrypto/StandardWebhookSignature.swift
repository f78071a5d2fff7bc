internal import Foundation
package import PasskeyDomain
internal import PasskeyOpenSSL

/// (v4) The `webhook-signature` header of Standard Webhooks (standardwebhooks.com): for each live
/// secret, `v1,` + base64 of HMAC-SHA256 over `id.timestamp.body` keyed with the secret's bytes,
/// space-separated (two while a rotated secret's 24 hours run).
package enum StandardWebhookSignature {
    /// The header for a delivery of `body` with `webhook-id` `id` at `timestamp` (Unix seconds).
    package static func header(id: String, timestamp: Int, body: [UInt8], secrets: [WebhookSecret]) throws
        -> String
    {
        let signed = Array("\(id).\(timestamp).".utf8) + body
        return try secrets.map { secret in
            "v1," + Data(try HMACSHA256.code(for: signed, key: secret.bytes)).base64EncodedString()
        }.joined(separator: " ")
    }
}
