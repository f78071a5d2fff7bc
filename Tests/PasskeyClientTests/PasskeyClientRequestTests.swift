import Foundation
import PasskeyClient
import Testing

/// What each call puts on the wire, and what it makes of the answer: through a stubbed
/// URLSession (`StubServer`), no socket, no database.
@Suite struct PasskeyClientRequestTests {
    @Test(arguments: ClientEndpoint.all)
    func eachCallSendsTheContractsRequest(_ endpoint: ClientEndpoint) async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: endpoint.answer.status, endpoint.answer.body)
        try await endpoint.call(client)

        let request = try #require(stub.requests.only)
        #expect(request.method == endpoint.method)
        #expect(request.path == endpoint.path)
        #expect(request.headers["accept"] == "application/json")
        // Only the calls that need a session carry the token, even while one is held.
        #expect(request.headers["authorization"] == (endpoint.authenticated ? "Bearer held-token" : nil))
        if let expected = endpoint.body {
            #expect(request.headers["content-type"] == "application/json")
            #expect(try Self.canonical(request.body) == Self.canonical(Data(expected.utf8)))
        } else {
            #expect(request.headers["content-type"] == nil)
            #expect(request.body?.isEmpty ?? true)
        }
    }

    @Test func aTokenGivenToTheCallIsSentInsteadOfTheHeldOne() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 200, ContractAnswers.account)
        _ = try await client.account(token: "given-token")
        #expect(stub.requests.only?.headers["authorization"] == "Bearer given-token")
        #expect(client.accessToken == "held-token")
    }

    @Test func registrationOptionsBecomeTheBytesThePlatformTakes() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        let options = try await client.startPasskeyRegistration(mode: .conditional)
        #expect(options.challengeID == "ch-1")
        #expect(options.challenge == Data([1, 2, 3]))
        #expect(options.userID == Data([4, 5, 6]))
        #expect(options.mode == .conditional)
        #expect(options.relyingPartyID == "example.com")
        #expect(options.userName == "taro@example.com")
        #expect(options.excludedCredentialIDs == [ClientEndpoint.credentialID])
        #expect(options.expiresAt == Date(timeIntervalSince1970: 1_796_151_900))
    }

    @Test func accountRegistrationAndSignInOptionsBecomeBytesToo() async throws {
        let stub = StubServer()
        let client = stub.client()
        stub.respond(status: 200, ContractAnswers.accountRegistrationOptions)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let registration = try await client.startPasskeyAccountRegistration()
        #expect(registration.registrationID == "reg-1")
        #expect(registration.challenge == Data([1, 2, 3]) && registration.userID == Data([4, 5, 6]))
        #expect(registration.userName == "taro@example.com" && registration.displayName == "Taro")
        let signIn = try await client.startPasskeySignIn()
        #expect(signIn.challengeID == "ch-2" && signIn.challenge == Data([1, 2, 3]))
        #expect(signIn.relyingPartyID == "example.com")
        // With no email or name given, the start sends an empty object (the iOS 26 sheet asks later).
        #expect(try Self.canonical(stub.requests.first?.body) == Self.canonical(Data("{}".utf8)))
    }

    @Test func optionsThatAreNotBase64URLAreRefused() async throws {
        let stub = StubServer()
        let client = stub.client()
        stub.respond(
            status: 200,
            ContractAnswers.authenticationOptions.replacingOccurrences(
                of: #""challenge":"AQID","challengeID""#, with: #""challenge":"not base64!","challengeID""#))
        let error = await #expect(throws: PasskeyClientError.self) { try await client.startPasskeySignIn() }
        guard case .unexpectedResponse(let message, _, _, _) = error else {
            Issue.record("expected unexpectedResponse, got \(String(describing: error))")
            return
        }
        #expect(message.contains("base64url"))
    }

    /// The same JSON with sorted keys, so key order and spacing do not matter.
    static func canonical(_ body: Data?) throws -> String {
        let object = try JSONSerialization.jsonObject(with: try #require(body))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

extension Array {
    /// The one element, nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
