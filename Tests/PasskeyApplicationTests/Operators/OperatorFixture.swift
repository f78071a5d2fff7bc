import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

/// The operator use cases over an in-memory repository.
struct OperatorFixture {
    let repository = InMemoryOperatorRepository()
    let random = SequentialRandomGenerator()
    let digester = PlainDigester()
    let clock = FixedClock()

    var addition: OperatorAdditionUseCase {
        OperatorAdditionUseCase(operators: repository, random: random, digester: digester, clock: clock)
    }
    var list: OperatorListUseCase { OperatorListUseCase(operators: repository) }
    var removal: OperatorRemovalUseCase { OperatorRemovalUseCase(operators: repository) }

    func authorization(configuredToken: String? = nil) -> OperatorAuthorizationUseCase {
        OperatorAuthorizationUseCase(operators: repository, configuredToken: configuredToken, digester: digester)
    }
}
