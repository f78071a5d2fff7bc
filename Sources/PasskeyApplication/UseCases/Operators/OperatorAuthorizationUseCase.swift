package import PasskeyDomain

/// Why an operator request was refused.
package enum OperatorAuthorizationError: Error, Hashable, Sendable {
    /// No operator exists and `OPERATOR_TOKEN` is unset: the operator endpoints and page answer
    /// 404, as if they did not exist.
    case disabled
    /// No token, or one no operator holds (401).
    case unauthorized
    /// A known operator whose role does not include the endpoint's (403 `forbidden`).
    case forbidden
    case unavailable
    case internalFailure(cause: FailureCause)
}

extension OperatorAuthorizationError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}

/// Every operator endpoint's check (spec v4, "Support desk"), before anything else the endpoint
/// looks at: `OPERATOR_TOKEN` (compared in constant time) is the admin named `operator`; any other
/// bearer token is looked up by its SHA-256 (one index lookup, the same work for every unknown
/// token, and no cache: a removed operator's token stops at once on every instance). 401 comes
/// before 403, and 403 before the endpoint reads its input.
package struct OperatorAuthorizationUseCase: Sendable {
    let operators: any OperatorRepository
    /// `OPERATOR_TOKEN`'s check; nil while it is unset.
    let configured: ConfiguredTokenCheck?
    let digester: any SecretDigester

    /// Longer bearer tokens are no operator's (ours are 43 characters): not even digested.
    static let maximumTokenLength = 512

    package init(operators: any OperatorRepository, configuredToken: String?, digester: any SecretDigester) {
        self.operators = operators
        self.configured = configuredToken.map { ConfiguredTokenCheck(token: $0, digester: digester) }
        self.digester = digester
    }

    /// The operator behind `bearer`, when its role includes `required`.
    package func execute(bearer: String?, requires required: OperatorRole) async throws(OperatorAuthorizationError)
        -> Operator
    {
        if let configured, let bearer, configured.accepts(bearer) {
            return Operator(name: SupportAgentName(Operator.configuredName)!, role: .admin, createdAt: nil)
        }
        let operators = operators
        if let bearer, !bearer.isEmpty, bearer.utf8.count <= Self.maximumTokenLength {
            let digest = digester.sha256(Array(bearer.utf8))
            let found = try await OperatorAuthorizationError.catching { () async throws(RepositoryError) in
                try await operators.find(tokenDigest: digest)
            }
            if let found {
                guard found.role.includes(required) else { throw .forbidden }
                return found
            }
        }
        guard try await isEnabled() else { throw .disabled }
        throw .unauthorized
    }

    /// Whether the operator endpoints and page exist: `OPERATOR_TOKEN` is set, or an operator does.
    package func isEnabled() async throws(OperatorAuthorizationError) -> Bool {
        guard configured == nil else { return true }
        let operators = operators
        return try await OperatorAuthorizationError.catching { () async throws(RepositoryError) in
            try await operators.anyExists()
        }
    }
}
