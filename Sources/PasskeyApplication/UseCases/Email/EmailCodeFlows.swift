internal import PasskeyDomain

/// What the email use cases share.
enum EmailCodeFlows {
    /// The account as `GET /v1/account` answers it; a deleted account is `unauthorized`.
    static func summary(of id: AccountID, in accounts: any AccountRepository) async throws(EmailFlowError)
        -> AccountSummary
    {
        let summary = try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await accounts.accountSummary(id: id)
        }
        guard let summary else { throw .unauthorized }
        return summary
    }
}
