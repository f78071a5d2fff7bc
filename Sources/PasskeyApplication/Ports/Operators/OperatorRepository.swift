package import PasskeyDomain

/// (v4) The support desk's named operators (`operators`), each with the SHA-256 of its token.
package protocol OperatorRepository: Sendable {
    /// Stores a new operator; false (nothing stored) when the name is taken.
    func add(_ operator: Operator, tokenDigest: [UInt8]) async throws(RepositoryError) -> Bool

    /// Every operator, by name.
    func list() async throws(RepositoryError) -> [Operator]

    /// Deletes the operator: its token stops at once. False when there is no such operator.
    func remove(named name: SupportAgentName) async throws(RepositoryError) -> Bool

    /// The operator whose token has this digest (one index lookup, whatever the digest).
    func find(tokenDigest: [UInt8]) async throws(RepositoryError) -> Operator?

    /// Whether any operator exists (while none does and `OPERATOR_TOKEN` is unset, the operator
    /// endpoints answer 404).
    func anyExists() async throws(RepositoryError) -> Bool
}
