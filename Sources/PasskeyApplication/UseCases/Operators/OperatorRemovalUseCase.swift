internal import PasskeyDomain

/// `passkey-server operators remove NAME`: the operator's token stops at once, on every instance
/// (each request looks the token up).
package struct OperatorRemovalUseCase: Sendable {
    let operators: any OperatorRepository

    package init(operators: any OperatorRepository) { self.operators = operators }

    package func execute(name: String) async throws(OperatorManagementError) {
        guard let name = SupportAgentName(name) else { throw .unknownOperator }
        let operators = operators
        let removed = try await OperatorManagementError.catching { () async throws(RepositoryError) in
            try await operators.remove(named: name)
        }
        guard removed else { throw .unknownOperator }
    }
}
