internal import Foundation
internal import PasskeyClient

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// The product's own backend (not the passkey server), which trusts the passkey server's
/// short-lived JWTs (docs/tokens.md; `Examples/ResourceServer` is such a backend): the account
/// screen reads the user's reports from it with `client.serviceToken(audience:)`.
protocol ProductAPI: Sendable {
    /// The JWTs it accepts are for this audience (one of the server's `TOKEN_AUDIENCES`).
    var audience: String { get }
    /// `GET /reports` with `Authorization: Bearer <JWT>`: the user's report titles.
    func reports(bearer jwt: String) async throws -> [String]
}

/// The product API over HTTP, e.g. `Examples/ResourceServer/resource_server.py serve`.
struct HTTPProductAPI: ProductAPI {
    let baseURL: URL
    let audience: String

    struct Failure: Error, Hashable { let status: Int }

    func reports(bearer jwt: String) async throws -> [String] {
        var request = URLRequest(url: baseURL.appendingPathComponent("reports"))
        request.setValue("Bearer \(jwt)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw Failure(status: status) }
        struct Body: Decodable { let reports: [String] }
        return try JSONDecoder().decode(Body.self, from: data).reports
    }
}
