package import PasskeyDomain

/// `passkey-server operators list`: every operator by name, with its role (never a token).
package struct OperatorListUseCase: Sendable {
    let operators: any OperatorRepository

    package init(operators: any OperatorRepository) { self.operators = operators }

    package func execute() async throws(OperatorManagementError) -> [Operator] {
        let operators = operators
        return try await OperatorManagementError.catching { () async throws(RepositoryError) in
            try await operators.list()
        }
    }
}
