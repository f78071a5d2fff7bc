import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import PasskeyDatabaseTestSupport
import Testing

/// Every one-call flow of `PasskeyAuthorization` against the real server and database, with the
/// software authenticator behind the controller seam (`SoftwareAuthenticatorControllers`). Without
/// `PASSKEY_TEST_DATABASE_URL` these fail loudly (they never skip).
@MainActor
@Suite struct PasskeyAuthorizationFlowTests {
    /// A bridge on one device, its signals recorded.
    @MainActor
    struct Phone {
        let device = SoftwareAuthenticatorControllers(origin: ServedServer.origin)
        let signals = RecordingSignals()
        let bridge: PasskeyAuthorization

        init(_ client: PasskeyClient) {
            bridge = PasskeyAuthorization(client: client, controllers: device, signals: signals)
        }
    }

    /// `ServedServer.with`, its body on the main actor as the bridge is.
    nonisolated private static func withServer(_ body: @escaping @MainActor @Sendable (URL) async throws -> Void)
        async throws
    {
        try await ServedServer.with { server in try await body(server) }
    }

    private static func email() -> String { "user-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    @Test func createAccountWithPasskeyThenSignInWithPasskey() async throws {
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            let email = Self.email()
            let created = try await phone.bridge.createAccountWithPasskey(email: email, displayName: "Taro")
            #expect(created.method == "passkey")
            let account = try await client.account()
            #expect(account.email == email)
            #expect(account.passkeys.map(\.credentialID) == phone.device.credentialIDs)
            #expect(account.passkeys.first?.transports == ["internal", "hybrid"])

            client.setAccessToken(nil)
            let session = try await phone.bridge.signInWithPasskey()
            #expect(session.method == "passkey")
            #expect(session.accountID == created.accountID)
            #expect(client.accessToken == session.accessToken)
            #expect(phone.bridge.relyingPartyID == "localhost")
        }
    }

    @Test func createAccountWithPasskeySheetTakesTheSheetsEmailAndName() async throws {
        guard #available(iOS 26.0, macOS 26.0, *) else { return }
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            phone.device.sheetEmail = Self.email()
            phone.device.sheetDisplayName = "Hanako"
            let session = try await phone.bridge.createAccountWithPasskeySheet()
            #expect(session.displayName == "Hanako")
            let account = try await client.account()
            #expect(account.email == phone.device.sheetEmail)
            #expect(account.passkeys.count == 1)
        }
    }

    @Test func upgradeToPasskeyRightAfterAPasswordSignIn() async throws {
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            let email = Self.email()
            _ = try await client.createPasswordAccount(
                email: email, displayName: "Taro", password: "correct horse battery")
            _ = try await client.signIn(email: email, password: "correct horse battery")

            // The device creates the passkey without UI (UP = 0, UV = 0) and the server accepts it.
            #expect(await phone.bridge.upgradeToPasskey() == .upgraded)
            guard case .registration(let options) = phone.device.requests.last else {
                Issue.record("no registration request")
                return
            }
            #expect(options.requestStyle == .conditional)
            #expect(try await client.account().passkeys.count == 1)

            // Again: the device holds the passkey now, so the platform declines; still signed in.
            #expect(await phone.bridge.upgradeToPasskey() == .declined(.matchedExcludedCredential))
            #expect(try await client.account().passkeys.count == 1)

            // A passkey session is no password sign-in: the server refuses conditional mode.
            _ = try await phone.bridge.signInWithPasskey()
            let outcome = await phone.bridge.upgradeToPasskey()
            guard case .refused(let error) = outcome else {
                Issue.record("not refused: \(outcome)")
                return
            }
            #expect(error.code == .conditionalNotAllowed)
        }
    }

    @Test func addPasskeyFromASecondDevice() async throws {
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            _ = try await phone.bridge.createAccountWithPasskey(email: Self.email(), displayName: "Taro")

            // The same device is excluded by the server's options…
            await #expect(throws: PasskeyClientError.authorization(.matchedExcludedCredential)) {
                try await phone.bridge.addPasskey()
            }
            // …a second one is added, with its name.
            let laptop = Phone(client)
            try await laptop.bridge.addPasskey(name: "Laptop")
            let passkeys = try await client.account().passkeys
            #expect(passkeys.count == 2)
            #expect(
                passkeys.contains {
                    $0.name == "Laptop" && $0.credentialID == laptop.device.credentialIDs.first
                })
        }
    }

    @Test func autoFillSignsInWhenTheUserPicksThePasskey() async throws {
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            let created = try await phone.bridge.createAccountWithPasskey(email: Self.email(), displayName: "Taro")
            client.setAccessToken(nil)
            phone.device.holdAutoFill = true
            let signingIn = Task { try await phone.bridge.signInWithAutoFill() }
            for _ in 0..<5000 where !phone.device.isHoldingAutoFill { try await Task.sleep(for: .milliseconds(1)) }
            #expect(client.accessToken == nil)
            phone.device.pickAutoFill()
            let session = try await signingIn.value
            #expect(session.accountID == created.accountID)
            guard case .assertion(_, .autoFill) = phone.device.requests.last else {
                Issue.record("not an AutoFill request: \(phone.device.requests)")
                return
            }
        }
    }

    @Test func deletePasskeyAndDeleteAccountSendTheirSignals() async throws {
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            _ = try await phone.bridge.createAccountWithPasskey(email: Self.email(), displayName: "Taro")
            let laptop = Phone(client)
            try await laptop.bridge.addPasskey(name: "Laptop")
            let userHandle = try await client.account().userHandle
            let phoneID = try #require(phone.device.credentialIDs.first)
            let laptopID = try #require(laptop.device.credentialIDs.first)

            try await phone.bridge.deletePasskey(credentialID: laptopID)
            #expect(
                phone.signals.signals == [
                    .allAccepted(relyingPartyID: "localhost", userHandle: userHandle, credentialIDs: [phoneID])
                ])

            try await phone.bridge.deleteAccount()
            #expect(phone.signals.signals.last == .unknown(relyingPartyID: "localhost", credentialID: phoneID))
            #expect(phone.signals.signals.count == 2)
            #expect(client.accessToken == nil)
        }
    }

    @Test func aSignInWithADeletedPasskeyReportsItUnknown() async throws {
        try await Self.withServer { server in
            let client = PasskeyClient(baseURL: server)
            let phone = Phone(client)
            _ = try await phone.bridge.createAccountWithPasskey(email: Self.email(), displayName: "Taro")
            let laptop = Phone(client)
            try await laptop.bridge.addPasskey()
            let laptopID = try #require(laptop.device.credentialIDs.first)
            try await phone.bridge.deletePasskey(credentialID: laptopID)

            // The laptop still holds the deleted passkey and offers it.
            client.setAccessToken(nil)
            await #expect {
                try await laptop.bridge.signInWithPasskey()
            } throws: {
                ($0 as? PasskeyClientError)?.code == .unknownCredential
            }
            #expect(laptop.signals.signals == [.unknown(relyingPartyID: "localhost", credentialID: laptopID)])
        }
    }
}
