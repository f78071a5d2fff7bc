internal import Foundation
internal import PasskeyWire

/// (v3) The signed-in account's activity, newest first.
extension PasskeyClient {
    /// `GET /v1/account/activity`: one page of at most `limit` events (1–100; the server's
    /// default, 50, when nil), starting after `before` (a previous page's `next`).
    public func activity(limit: Int? = nil, before: String? = nil, token: String? = nil)
        async throws(PasskeyClientError) -> PasskeyActivityPage
    {
        var parameters: [String] = []
        if let limit { parameters.append("limit=\(limit)") }
        if let before {
            guard let escaped = before.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-", "_"]))
            else { throw .unexpectedResponse("not a cursor") }
            parameters.append("before=\(escaped)")
        }
        let path = "/v1/account/activity" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        return try await send("GET", path, authorization: .bearer(token), expecting: PasskeyActivityPage.self)
    }

    /// Every page of the activity in turn, newest first, following `next` until the server says
    /// there is none. Each page is fetched when the loop asks for it; a page fetched later never
    /// repeats an event of an earlier one, and events that arrive meanwhile are not in it (they
    /// are newer than the first page).
    public func activityPages(pageSize: Int? = nil, token: String? = nil) -> PasskeyActivityPages {
        PasskeyActivityPages(client: self, pageSize: pageSize, token: token)
    }
}

/// The pages of `PasskeyClient.activityPages(pageSize:token:)`.
public struct PasskeyActivityPages: AsyncSequence, Sendable {
    public typealias Element = PasskeyActivityPage
    public typealias Failure = PasskeyClientError

    let client: PasskeyClient
    let pageSize: Int?
    let token: String?

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, pageSize: pageSize, token: token)
    }

    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = PasskeyActivityPage
        public typealias Failure = PasskeyClientError

        let client: PasskeyClient
        let pageSize: Int?
        let token: String?
        /// nil before the first page; `.some(nil)` once the last page was returned.
        var next: String??

        init(client: PasskeyClient, pageSize: Int?, token: String?) {
            self.client = client
            self.pageSize = pageSize
            self.token = token
        }

        public mutating func next() async throws(PasskeyClientError) -> PasskeyActivityPage? {
            guard let before = next else { return try await record(Self.fetch(client, pageSize, token, before: nil)) }
            guard let before else { return nil }
            return try await record(Self.fetch(client, pageSize, token, before: before))
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PasskeyClientError)
            -> PasskeyActivityPage?
        {
            guard let before = next else { return try await record(Self.fetch(client, pageSize, token, before: nil)) }
            guard let before else { return nil }
            return try await record(Self.fetch(client, pageSize, token, before: before))
        }

        private mutating func record(_ page: PasskeyActivityPage) -> PasskeyActivityPage {
            next = .some(page.next)
            return page
        }

        /// Nonisolated, on Sendable values only, so either `next` may call it from anywhere.
        private static func fetch(_ client: PasskeyClient, _ pageSize: Int?, _ token: String?, before: String?)
            async throws(PasskeyClientError) -> PasskeyActivityPage
        {
            try await client.activity(limit: pageSize, before: before, token: token)
        }
    }
}
