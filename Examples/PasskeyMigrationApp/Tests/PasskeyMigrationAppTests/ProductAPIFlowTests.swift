import Foundation
import PasskeyClient
import Testing

@testable import PasskeyMigrationApp

/// The account screen calls the product's own backend with a short-lived JWT from the passkey
/// server (`serviceToken(audience:)`, the tokens issue): a stand-in product API reads the JWT it
/// is given. Against the real server.
@Suite struct ProductAPIFlowTests {
    static let audience = "https://reports.example.com"

    /// A product API that accepts what a real one would check first: a JWS for its audience,
    /// about the signed-in account.
    final class StandInProductAPI: ProductAPI, @unchecked Sendable {
        let audience = ProductAPIFlowTests.audience
        private let lock = NSLock()
        private(set) var claims: [[String: Any]] = []

        func reports(bearer jwt: String) async throws -> [String] {
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw HTTPProductAPI.Failure(status: 401) }
            var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+")
                .replacingOccurrences(of: "_", with: "/")
            while payload.count % 4 != 0 { payload += "=" }
            guard let data = Data(base64Encoded: payload),
                let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw HTTPProductAPI.Failure(status: 401) }
            lock.withLock { claims.append(json) }
            return ["Q4 sales for \(json["sub"] as? String ?? "?")"]
        }
    }

    @Test func theAccountScreenReadsTheReportsWithAServiceToken() async throws {
        let environment = [
            "DATA_ENCRYPTION_KEY": Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
            "TOKEN_AUDIENCES": Self.audience,
        ]
        try await TestApp.onServer(environment: environment) { server in
            let product = StandInProductAPI()
            let test = TestApp(server: server, controllers: TestApp.newDevice(), productAPI: product)
            let email = try await test.passwordUser()
            let account = try await test.signInWithPassword(email)
            let accountID = try #require(test.app.user?.accountID)
            await account.loadReports()
            #expect(account.reportsMessage == nil)
            #expect(account.reports == ["Q4 sales for \(accountID)"])
            let claims = try #require(product.claims.first)
            #expect(claims["aud"] as? String == Self.audience)
            #expect(claims["sub"] as? String == accountID)
        }
    }
}
