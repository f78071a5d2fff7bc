package import Foundation

/// The configuration of the tokens for the product's other services (`TOKEN_*`).
package struct TokenPolicy: Hashable, Sendable {
    /// `iss` (`TOKEN_ISSUER`).
    package let issuer: String
    /// The audiences a client may ask for; the first is the default (`TOKEN_AUDIENCES`).
    package let audiences: [String]
    /// `TOKEN_LIFETIME_SECONDS` (30–3600).
    package let lifetime: TimeInterval
    /// `TOKEN_KEY_ROTATION_DAYS`, in seconds.
    package let rotationInterval: TimeInterval

    package init(issuer: String, audiences: [String], lifetime: TimeInterval, rotationInterval: TimeInterval) {
        self.issuer = issuer
        self.audiences = audiences.isEmpty ? [issuer] : audiences
        self.lifetime = lifetime
        self.rotationInterval = rotationInterval
    }
}
