import Foundation
import PasskeyHTTP
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// Spec v2 "Abuse limits": limits that hold under concurrency, across the client addresses a
/// proxy reports, and a bounded password-hashing queue.
@Suite struct AttemptLimitTests {
    /// The review's attack: a burst of guesses at one account. Before, every request read the
    /// failure count before any wrote it, so all 99 wrong guesses were checked and the right
    /// password in the burst signed in.
    @Test func aBurstOfGuessesChecksAtMostTheLimitAndThenTheRightPasswordIsRefused() async throws {
        let environment = ["RATE_LIMIT_PASSWORD_PER_EMAIL": "10", "RATE_LIMIT_PASSWORD_PER_ADDRESS": "1000"]
        try await withServer(environment: environment) { server, _ in
            let client = server.client
            let email = "victim-\(UUID().uuidString.prefix(8))@example.com"
            let created = try await client.send(
                "POST", "/v1/accounts", json: ["email": email, "displayName": "Victim", "password": "the real one"])
            try #require(created.status == 201)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await client.send(
                            "POST", "/v1/sessions", json: ["email": email, "password": "guess number \(index)"]
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 10)
            #expect(statuses.filter { $0 == 429 }.count == 90)
            let right = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "the real one"])
            #expect(right.status == 429)
            #expect(right.code == "rate-limited")
            #expect(Int(right.headers["retry-after"] ?? "") ?? 0 >= 1)
        }
    }

    @Test func aBurstFromOneAddressAtManyAccountsChecksAtMostTheAddressLimit() async throws {
        let environment = ["RATE_LIMIT_PASSWORD_PER_EMAIL": "1000", "RATE_LIMIT_PASSWORD_PER_ADDRESS": "5"]
        try await withServer(environment: environment) { server, _ in
            let client = server.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await client.send(
                            "POST", "/v1/sessions", json: ["email": "nobody\(index)@example.com", "password": "guess"]
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 5)
            #expect(statuses.filter { $0 == 429 }.count == 25)
        }
    }

    /// A right password gives its attempt back: a user who signs in often is never limited.
    @Test func successfulSignInsAreNotCounted() async throws {
        try await withServer(environment: ["RATE_LIMIT_PASSWORD_PER_EMAIL": "2"]) { server, _ in
            let client = server.client
            let (_, email) = try await client.passwordUser(password: "right password")
            for _ in 0..<4 {
                let session = try await client.send(
                    "POST", "/v1/sessions", json: ["email": email, "password": "right password"])
                #expect(session.status == 200)
                #expect(session.string("method") == "password")
            }
        }
    }

    /// The forged-line attack, through the composition root with the header lines exactly as
    /// libmicrohttpd hands them over: the client's own line first, the proxy's line last.
    @Test func aForgedForwardedForLineDoesNotChooseTheClientAddress() async throws {
        let environment = [
            "TRUSTED_PROXIES": "127.0.0.1", "RATE_LIMIT_PASSWORD_PER_ADDRESS": "2",
            "RATE_LIMIT_PASSWORD_PER_EMAIL": "100",
        ]
        try await withServer(environment: environment) { server, _ in
            var statuses: [Int] = []
            for index in 0..<4 {
                let response = await server.app.handle(
                    Self.signIn(
                        email: "nobody@example.com", peer: "127.0.0.1",
                        forwardedFor: ["10.9.\(index).1", "198.51.100.7"]))
                statuses.append(response.status.code)
            }
            #expect(statuses == [401, 401, 429, 429])
            // Another real client (another address appended by the proxy) is not limited.
            let other = await server.app.handle(
                Self.signIn(email: "nobody@example.com", peer: "127.0.0.1", forwardedFor: ["198.51.100.8"]))
            #expect(other.status == 401)
        }
    }

    /// A CIDR range in TRUSTED_PROXIES was accepted before but never matched.
    @Test func aProxyInATrustedRangeIsBelieved() async throws {
        let environment = [
            "TRUSTED_PROXIES": "127.0.0.0/8", "RATE_LIMIT_PASSWORD_PER_ADDRESS": "1",
            "RATE_LIMIT_PASSWORD_PER_EMAIL": "100",
        ]
        try await withServer(environment: environment) { server, _ in
            let first = await server.app.handle(
                Self.signIn(email: "a@example.com", peer: "127.0.0.9", forwardedFor: ["198.51.100.1"]))
            let second = await server.app.handle(
                Self.signIn(email: "a@example.com", peer: "127.0.0.9", forwardedFor: ["198.51.100.2"]))
            let again = await server.app.handle(
                Self.signIn(email: "a@example.com", peer: "127.0.0.9", forwardedFor: ["198.51.100.1"]))
            let statuses: [Int] = [first.status.code, second.status.code, again.status.code]
            #expect(statuses == [401, 401, 429])
        }
    }

    @Test func ipv6ClientsShareTheirSlash64sBudget() async throws {
        let environment = ["RATE_LIMIT_PASSWORD_PER_ADDRESS": "2", "RATE_LIMIT_PASSWORD_PER_EMAIL": "100"]
        try await withServer(environment: environment) { server, _ in
            var statuses: [Int] = []
            for host in ["2001:db8:7:7::1", "2001:db8:7:7::2", "2001:db8:7:7:ffff::3"] {
                statuses.append(
                    await server.app.handle(Self.signIn(email: "b@example.com", peer: host, forwardedFor: [])).status
                        .code)
            }
            #expect(statuses == [401, 401, 429])
            let otherNetwork = await server.app.handle(
                Self.signIn(email: "b@example.com", peer: "2001:db8:7:8::1", forwardedFor: []))
            #expect(otherNetwork.status == 401)
        }
    }

    @Test func signUpsAreLimitedPerAddress() async throws {
        try await withServer(environment: ["RATE_LIMIT_SIGNUPS_PER_ADDRESS": "3"]) { server, _ in
            var statuses: [Int] = []
            for index in 0..<5 {
                let created = try await server.client.send(
                    "POST", "/v1/accounts",
                    json: ["email": "new\(index)@example.com", "displayName": "New", "password": "long enough"])
                statuses.append(created.status)
                if created.status == 429 {
                    #expect(created.code == "rate-limited")
                    #expect(created.headers["retry-after"] != nil)
                }
            }
            #expect(statuses == [201, 201, 201, 429, 429])
        }
    }

    /// The flood of the review: many sign-ups at once used to queue Argon2 work without bound in
    /// front of every sign-in. Now the queue is bounded (503 with Retry-After at once beyond it)
    /// and a passkey sign-in, which never touches that queue, succeeds during the flood.
    @Test func aSignUpFloodIsAnsweredBusyWhileAPasskeySignInSucceeds() async throws {
        let environment = ["PASSWORD_HASH_QUEUE_LIMIT": "2", "RATE_LIMIT_SIGNUPS_PER_ADDRESS": "0"]
        try await withServer(environment: environment) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let flood = Task {
                try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for index in 0..<60 {
                        group.addTask {
                            try await client.send(
                                "POST", "/v1/accounts",
                                json: [
                                    "email": "flood\(index)@example.com", "displayName": "Flood",
                                    "password": "flooding password",
                                ])
                        }
                    }
                    return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
                }
            }
            let signIn = try await client.signIn(&passkey)
            #expect(signIn.status == 200)
            #expect(signIn.string("method") == "passkey")
            let responses = try await flood.value
            #expect(responses.allSatisfy { $0.status == 201 || $0.status == 503 })
            let busy = responses.filter { $0.status == 503 }
            #expect(!busy.isEmpty)
            #expect(busy.allSatisfy { $0.code == "service-unavailable" && $0.headers["retry-after"] != nil })
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.text.contains("passkey_password_hash_refused_total \(busy.count)"))
        }
    }

    /// Emails that grow past 254 code points when normalised (`İ` lowercases to two) or that
    /// are one character of many code points were a 500 from the database's CHECK, and a
    /// sign-in with one recorded no failure.
    @Test func longUnicodeEmailsAreInvalidRequestsNeverInternalErrors() async throws {
        try await withServer { server, _ in
            let client = server.client
            let combining = "a" + String(repeating: "\u{0301}", count: 300) + "@example.com"
            let dottedI = String(repeating: "\u{0130}", count: 240) + "@example.com"
            for email in [combining, dottedI] {
                let signUp = try await client.send(
                    "POST", "/v1/accounts", json: ["email": email, "displayName": "U", "password": "long enough"])
                #expect(signUp.status == 400)
                #expect(signUp.code == "invalid-request")
                let start = try await client.send(
                    "POST", "/v1/passkey-accounts/registrations", json: ["email": email, "displayName": "U"])
                #expect(start.status == 400)
                #expect(start.code == "invalid-request")
                let signIn = try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "x"])
                #expect(signIn.status == 400)
                #expect(signIn.code == "invalid-request")
            }
            // 254 code points after normalisation is still fine.
            let longest = String(repeating: "b", count: 254 - "@example.com".count) + "@example.com"
            let fine = try await client.send(
                "POST", "/v1/accounts", json: ["email": longest, "displayName": "U", "password": "long enough"])
            #expect(fine.status == 201)
        }
    }

    private static func signIn(email: String, peer: String, forwardedFor: [String]) -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: "/v1/sessions",
            headers: HTTPFields([("content-type", "application/json")] + forwardedFor.map { ("x-forwarded-for", $0) }),
            body: Array(#"{"email":"\#(email)","password":"wrong password"}"#.utf8), remoteAddress: peer)
    }
}
