package import PasskeyDomain

/// `passkey-server operators add NAME --role viewer|support|admin` (spec v4, "Support desk"): a
/// new operator and its token (32 bytes from the CSPRNG, base64url: 256 bits), printed once;
/// only the token's SHA-256 is stored.
package struct OperatorAdditionUseCase: Sendable {
    let operators: any OperatorRepository
    let random: any RandomGenerator
    let digester: any SecretDigester
    let clock: any WallClock

    package init(
        operators: any OperatorRepository, random: any RandomGenerator, digester: any SecretDigester,
        clock: any WallClock
    ) {
        self.operators = operators
        self.random = random
        self.digester = digester
        self.clock = clock
    }

    package func execute(name: String, role: String) async throws(OperatorManagementError)
        -> (operator: Operator, token: String)
    {
        guard let name = SupportAgentName(name) else {
            throw .invalidRequest("the name must be 1 to 64 printable characters.")
        }
        guard name.value != Operator.configuredName else {
            throw .invalidRequest("\(Operator.configuredName) is OPERATOR_TOKEN's name: choose another.")
        }
        guard let role = OperatorRole(rawValue: role) else {
            throw .invalidRequest("the role must be viewer, support or admin.")
        }
        let token = Base64URL.encode(random.bytes(count: 32))
        let added = Operator(name: name, role: role, createdAt: clock.now)
        let operators = operators
        let digest = digester.sha256(Array(token.utf8))
        let stored = try await OperatorManagementError.catching { () async throws(RepositoryError) in
            try await operators.add(added, tokenDigest: digest)
        }
        guard stored else { throw .nameTaken }
        return (added, token)
    }
}
