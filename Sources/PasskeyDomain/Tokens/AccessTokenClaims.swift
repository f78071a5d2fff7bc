package import Foundation

/// What a JWT for the product's other services says (spec v4): who, which session, how it signed
/// in, and the account's migration stage when the token was made. Nothing else: no email, name
/// or address.
package struct AccessTokenClaims: Hashable, Sendable {
    package let issuer: String
    package let audience: String
    package let subject: AccountID
    package let sessionID: SessionID
    package let tokenID: UUID
    /// Whole seconds, as JWTs count (`iat`, `exp`, `auth_time`).
    package let issuedAt: Date
    package let expiresAt: Date
    package let authTime: Date
    package let authenticationMethods: [String]
    package let method: AuthenticationMethod
    package let stage: MigrationStage

    package init(
        issuer: String, audience: String, subject: AccountID, sessionID: SessionID, tokenID: UUID, issuedAt: Date,
        expiresAt: Date, authTime: Date, authenticationMethods: [String], method: AuthenticationMethod,
        stage: MigrationStage
    ) {
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.sessionID = sessionID
        self.tokenID = tokenID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.authTime = authTime
        self.authenticationMethods = authenticationMethods
        self.method = method
        self.stage = stage
    }

    /// RFC 8176 values for a session's way in: a password `pwd`; a passkey `pop` and `user`
    /// (proof of possession by the user), and `mfa` when the user was verified (the passkey is
    /// one factor and the device's biometrics or PIN another); a recovery code or a mailed code
    /// `otp`.
    package static func authenticationMethods(of method: AuthenticationMethod, userVerified: Bool) -> [String] {
        switch method {
        case .password: ["pwd"]
        case .passkey: userVerified ? ["pop", "user", "mfa"] : ["pop", "user"]
        case .recovery, .email: ["otp"]
        }
    }
}

/// What introspection (RFC 7662) answers for an active token.
package struct ActiveTokenFacts: Hashable, Sendable {
    package let subject: AccountID
    package let sessionID: SessionID
    package let issuedAt: Date
    package let expiresAt: Date
    package let authTime: Date
    package let authenticationMethods: [String]
    package let method: AuthenticationMethod
    package let stage: MigrationStage
    /// For a JWT: `iss`, `aud`, `jti`.
    package let jwt: (issuer: String, audience: String, tokenID: UUID)?

    package init(
        subject: AccountID, sessionID: SessionID, issuedAt: Date, expiresAt: Date, authTime: Date,
        authenticationMethods: [String], method: AuthenticationMethod, stage: MigrationStage,
        jwt: (issuer: String, audience: String, tokenID: UUID)?
    ) {
        self.subject = subject
        self.sessionID = sessionID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.authTime = authTime
        self.authenticationMethods = authenticationMethods
        self.method = method
        self.stage = stage
        self.jwt = jwt
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.subject == b.subject && a.sessionID == b.sessionID && a.issuedAt == b.issuedAt
            && a.expiresAt == b.expiresAt && a.authTime == b.authTime
            && a.authenticationMethods == b.authenticationMethods && a.method == b.method && a.stage == b.stage
            && a.jwt?.issuer == b.jwt?.issuer && a.jwt?.audience == b.jwt?.audience && a.jwt?.tokenID == b.jwt?.tokenID
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(sessionID)
        hasher.combine(issuedAt)
    }
}
