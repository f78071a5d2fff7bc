package import PasskeyApplication
package import PasskeyDomain
package import Synchronization

/// `OperatorRepository` in memory, for the operator use cases' unit tests; counts the lookups
/// by digest.
package final class InMemoryOperatorRepository: OperatorRepository {
    private struct Row {
        let stored: Operator
        let digest: [UInt8]
    }

    private let rows = Mutex<[Row]>([])
    /// Every call fails with this while set.
    package let failure = Mutex<RepositoryError?>(nil)
    package let lookups = Mutex(0)

    package init() {}

    package var digests: [[UInt8]] { rows.withLock { $0.map(\.digest) } }

    private func check() throws(RepositoryError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    package func add(_ operator: Operator, tokenDigest: [UInt8]) async throws(RepositoryError) -> Bool {
        try check()
        return rows.withLock { rows in
            guard !rows.contains(where: { $0.stored.name == `operator`.name }) else { return false }
            rows.append(Row(stored: `operator`, digest: tokenDigest))
            return true
        }
    }

    package func list() async throws(RepositoryError) -> [Operator] {
        try check()
        return rows.withLock { $0.map(\.stored).sorted { $0.name.value < $1.name.value } }
    }

    package func remove(named name: SupportAgentName) async throws(RepositoryError) -> Bool {
        try check()
        return rows.withLock { rows in
            let before = rows.count
            rows.removeAll { $0.stored.name == name }
            return rows.count < before
        }
    }

    package func find(tokenDigest: [UInt8]) async throws(RepositoryError) -> Operator? {
        try check()
        lookups.withLock { $0 += 1 }
        return rows.withLock { $0.first { $0.digest == tokenDigest }?.stored }
    }

    package func anyExists() async throws(RepositoryError) -> Bool {
        try check()
        return rows.withLock { !$0.isEmpty }
    }
}
