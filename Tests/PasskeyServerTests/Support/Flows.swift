import Foundation
import PasskeyTestSupport
import Testing

/// The talk's flows, step by step over HTTP, for tests to build on.
extension TestHTTPClient {
    /// Sign-up with a password, then sign-in; returns the access token.
    func passwordUser(
        email: String = "user-\(UUID().uuidString.prefix(8))@example.com", password: String = "correct horse battery"
    )
        async throws -> (token: String, email: String)
    {
        let created = try await send(
            "POST", "/v1/accounts", json: ["email": email, "displayName": "Taro Yamada", "password": password])
        try #require(created.status == 201, "sign-up: \(created.text)")
        let session = try await send("POST", "/v1/sessions", json: ["email": email, "password": password])
        try #require(session.status == 200, "sign-in: \(session.text)")
        return (try #require(session.string("accessToken")), email)
    }

    /// Adds a passkey to the signed-in account (modal or conditional); returns the finish response.
    func addPasskey(
        _ passkey: inout TestPasskey, token: String, mode: String = "modal",
        adjust: (inout SoftwareAuthenticatorRegistration) -> Void = { _ in }
    ) async throws -> TestResponse {
        let options = try await send("POST", "/v1/passkeys/registrations", json: ["mode": mode], token: token)
        try #require(options.status == 200, "registration start: \(options.text)")
        let body = try passkey.registrationBody(options: options.json, adjust: adjust)
        return try await send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
    }

    /// Creates the account's recovery codes (needed before the password can go); returns them.
    @discardableResult
    func recoveryCodes(token: String) async throws -> [String] {
        let created = try await send("POST", "/v1/account/recovery-codes", token: token)
        try #require(created.status == 201, "recovery codes: \(created.text)")
        return try #require(created.json["codes"] as? [String])
    }

    /// Starts a sign-in and returns the options.
    func startSignIn() async throws -> [String: Any] {
        let options = try await send("POST", "/v1/passkeys/authentications")
        try #require(options.status == 200, "authentication start: \(options.text)")
        return options.json
    }

    /// A whole passkey sign-in.
    func signIn(
        _ passkey: inout TestPasskey, counterStep: UInt32 = 1,
        adjust: (inout SoftwareAuthenticatorAssertion) -> Void = { _ in }
    ) async throws -> TestResponse {
        let options = try await startSignIn()
        let body = try passkey.assertionBody(options: options, counterStep: counterStep, adjust: adjust)
        return try await send("POST", "/v1/passkeys/authentications/finish", json: body)
    }
}
