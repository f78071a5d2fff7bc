internal import Foundation
internal import PasskeyClient

// The operations of the talk's flows, in the order the slides show them.

// MARK: Password accounts (slide 7)

/// `POST /v1/accounts`: a password account (the existing users' way in, before passkeys).
struct CreatePasswordAccountOperation: Operation {
    let email: String
    let displayName: String
    let password: String

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeyCreatedAccount {
        try await client.createPasswordAccount(email: email, displayName: displayName, password: password)
    }
}

/// `POST /v1/sessions`: the password sign-in.
struct PasswordSignInOperation: Operation {
    let email: String
    let password: String

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeySession {
        try await client.signIn(email: email, password: password)
    }
}

// MARK: Add a passkey to the signed-in account (slides 17–42)

/// `POST /v1/passkeys/registrations`: options for the platform's registration request.
struct StartPasskeyRegistrationOperation: Operation {
    let mode: PasskeyRegistrationMode

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeyRegistrationOptions {
        try await client.startPasskeyRegistration(mode: mode)
    }
}

/// `POST /v1/passkeys/registrations/finish`: the new passkey, verified and stored by the server.
struct FinishPasskeyRegistrationOperation: Operation {
    let challengeID: String
    let credential: PasskeyRegistrationCredential
    let name: String?

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) {
        try await client.finishPasskeyRegistration(challengeID: challengeID, credential: credential, name: name)
    }
}

// MARK: A new account with a passkey (slides 46–60)

/// `POST /v1/passkey-accounts/registrations`: with the form's address and name, or without
/// (the iOS 26 sheet asks for them).
struct StartPasskeyAccountRegistrationOperation: Operation {
    let email: String?
    let displayName: String?

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeyAccountRegistrationOptions {
        try await client.startPasskeyAccountRegistration(email: email, displayName: displayName)
    }
}

/// `POST /v1/passkey-accounts/registrations/finish`: the account, its passkey, and a session.
struct FinishPasskeyAccountRegistrationOperation: Operation {
    let registrationID: String
    let email: String
    let displayName: String
    let credential: PasskeyRegistrationCredential

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeySession {
        try await client.finishPasskeyAccountRegistration(
            registrationID: registrationID, email: email, displayName: displayName, credential: credential)
    }
}

// MARK: Sign in with a passkey (slides 61–76)

/// `POST /v1/passkeys/authentications`: a discoverable sign-in's options.
struct StartPasskeyAuthenticationOperation: Operation {
    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeySignInOptions {
        try await client.startPasskeySignIn()
    }
}

/// `POST /v1/passkeys/authentications/finish`: the assertion, verified; a session.
struct FinishPasskeyAuthenticationOperation: Operation {
    let challengeID: String
    let assertion: PasskeyAssertionCredential

    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> PasskeySession {
        try await client.finishPasskeySignIn(challengeID: challengeID, assertion: assertion)
    }
}
