public import Foundation

// (v4) "Tokens for the product's other services": the bodies the server writes and
// PasskeyClient reads.

/// `POST /v1/sessions/current/tokens` body: `{audience?}`.
public struct ServiceTokenRequestBody: Codable, Sendable, Hashable {
    public let audience: String?

    public init(audience: String? = nil) { self.audience = audience }
}

/// → 201 `{token, tokenType: "JWT", audience, expiresAt}`.
public struct ServiceTokenResponseBody: Codable, Sendable, Hashable {
    public let token: String
    public let tokenType: String
    public let audience: String
    public let expiresAt: Date

    public init(token: String, tokenType: String = "JWT", audience: String, expiresAt: Date) {
        self.token = token
        self.tokenType = tokenType
        self.audience = audience
        self.expiresAt = expiresAt
    }
}
