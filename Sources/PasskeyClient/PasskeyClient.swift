public import Foundation
internal import PasskeyWire
internal import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An async/await client for every endpoint of the passkey server's contract, for iOS apps (see
/// `PasskeyClient+AuthenticationServices.swift`) and any Swift program.
///
/// Inputs and outputs are what AuthenticationServices works with (`Data` for challenges, user IDs,
/// credential IDs and the raw authenticator outputs): the app never touches base64. A session
/// from any sign-in is held by the client and used for the authenticated calls, unless a call is
/// given its own `token`. Errors are `PasskeyClientError`: the server's problem+json as typed
/// values, transport failures, or an answer that is not the contract's. `Sendable`; cancelling
/// the calling task cancels the request (URLSession's async API).
public final class PasskeyClient: Sendable {
    /// The server's origin, e.g. `https://example.com` (paths like `/v1/sessions` are appended).
    public let baseURL: URL
    let session: URLSession
    private let token: Mutex<String?>

    public init(baseURL: URL, session: URLSession = .shared, accessToken: String? = nil) {
        self.baseURL = baseURL
        self.session = session
        self.token = Mutex(accessToken)
    }

    /// The access token the authenticated calls use (set by every successful sign-in).
    public var accessToken: String? { token.withLock { $0 } }

    /// Replaces the held access token (e.g. one restored from the keychain), or forgets it.
    public func setAccessToken(_ accessToken: String?) { token.withLock { $0 = accessToken } }

    // MARK: - Plumbing

    enum Authorization {
        case none
        /// The token given to the call, else the held one.
        case bearer(String?)
    }

    /// Sends one request and decodes the answer; a non-2xx answer is a `PasskeyClientError`.
    func send<Response: Decodable>(
        _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil,
        authorization: Authorization = .none, expecting: Response.Type
    ) async throws(PasskeyClientError) -> Response {
        let (data, status) = try await exchange(method, path, body: body, authorization: authorization)
        do {
            return try WireJSON.decode(Response.self, from: data)
        } catch {
            throw .unexpectedResponse(
                "the answer is not the contract's \(Response.self)", status: status,
                cause: DecodingFailure.describe(error))
        }
    }

    /// Sends one request whose success has no body (204).
    func send(
        _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil,
        authorization: Authorization = .none
    ) async throws(PasskeyClientError) {
        _ = try await exchange(method, path, body: body, authorization: authorization)
    }

    /// The body and status of a 2xx answer.
    private func exchange(
        _ method: String, _ path: String, body: (any Encodable & Sendable)?, authorization: Authorization
    ) async throws(PasskeyClientError) -> (body: Data, status: Int) {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw .unexpectedResponse("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            do {
                request.httpBody = try WireJSON.encode(body)
            } catch {
                throw .unexpectedResponse("the request body could not be encoded", cause: "\(error)")
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if case .bearer(let given) = authorization {
            guard let bearer = given ?? accessToken else { throw .notSignedIn }
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        }
        let data: Data
        let response: URLResponse
        do {
            try Task.checkCancellation()
            (data, response) = try await session.data(for: request)
        } catch is CancellationError {
            throw .cancelled
        } catch let error as URLError where error.code == .cancelled {
            throw .cancelled
        } catch {
            throw .transport(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else { throw .unexpectedResponse("not an HTTP answer") }
        guard (200..<300).contains(http.statusCode) else {
            throw PasskeyClientError(
                status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        }
        return (data, http.statusCode)
    }
}
