import PasskeyDatabaseTestSupport
import PasskeyEventLoop
import PasskeyLibpq
import Synchronization
import Testing

/// The pool split over event loops: `maximumConnections` (`DATABASE_POOL_SIZE`) stays the total,
/// each loop gets its share, a caller on a loop is served by that loop's share (its statements
/// run on its own thread), and a caller on no loop takes the shares in turn.
@Suite struct LoopSharesTests {
    @Test(arguments: [(8, 2, [4, 4]), (5, 2, [3, 2]), (1, 2, [1]), (3, 4, [1, 1, 1]), (7, 1, [7])])
    func theTotalIsSplitOverTheLoops(total: Int, loops count: Int, shares: [Int]) {
        let group = EventLoopGroup(count: count)
        defer { group.shutdown() }
        let pool = PostgresConnectionPool(
            configuration: .init(conninfo: "host=/nonexistent", maximumConnections: total), loops: group.loops)
        defer { pool.close() }
        #expect(pool.shareSizes == shares)
        #expect(pool.shareSizes.reduce(0, +) == total)
        #expect(pool.loops.map(\.index) == Array(0..<shares.count))
    }

    @Test func aCallerOnALoopIsServedByThatLoopsShareAndOthersTakeTurns() async throws {
        try await withTestDatabase { database, _ in
            let group = EventLoopGroup(count: 2)
            defer { group.shutdown() }
            let pool = PostgresConnectionPool(
                configuration: .init(conninfo: database.conninfo, maximumConnections: 2), loops: group.loops)
            defer { pool.close() }
            for loop in group.loops {
                let (before, during) = try await Task(executorPreference: loop) {
                    let before = EventLoop.current?.index
                    let during = try await pool.withConnection { c async throws(PostgresError) in
                        _ = try await c.query("SELECT 1")
                        return EventLoop.current?.index
                    }
                    return (before, during)
                }.value
                #expect(before == loop.index)
                #expect(
                    during == loop.index,
                    "a caller on loop \(loop.index) was served on loop \(String(describing: during))")
            }
            // From no loop: the body runs on a loop, the shares in turn.
            var seen: Set<Int> = []
            for _ in 0..<4 {
                let index = try await pool.withConnection { c async throws(PostgresError) in
                    _ = try await c.query("SELECT 1")
                    return EventLoop.current?.index
                }
                seen.insert(try #require(index))
            }
            #expect(seen == [0, 1])
        }
    }
}
