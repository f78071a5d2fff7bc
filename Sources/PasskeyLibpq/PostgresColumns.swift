internal import CLibpq

/// The column layout of a result: the names in `SELECT` order, name → index, and the type of
/// each column. Built once per shape of result on a connection (`PostgresColumns.Cache`), not
/// per result: the statements of the hot path return the same columns every time, and building
/// the index (a `String` per name, a dictionary) for every result cost more than the reads it
/// serves.
final class PostgresColumns: Sendable {
    let names: [String]
    /// Column name → index; `PGresultOwner.ambiguous` for a name of several columns.
    let indexes: [String: Int32]
    let types: [PostgresDataType]
    /// The names' bytes, to tell a cached layout from another of the same hash.
    private let nameBytes: [[UInt8]]

    init(of handle: OpaquePointer) {
        let count = PQnfields(handle)
        var names: [String] = []
        var indexes: [String: Int32] = [:]
        var types: [PostgresDataType] = []
        var bytes: [[UInt8]] = []
        if count > 0 {
            names.reserveCapacity(Int(count))
            indexes.reserveCapacity(Int(count))
            types.reserveCapacity(Int(count))
            bytes.reserveCapacity(Int(count))
            for column in 0..<count {
                let name = PQfname(handle, column).map { String(cString: $0) } ?? ""
                names.append(name)
                bytes.append(Array(name.utf8))
                // A name that appears twice (`SELECT a.id, b.id`) is ambiguous: reading it by name
                // throws, so a join never reads the wrong table's column.
                indexes[name] = indexes[name] == nil ? column : PGresultOwner.ambiguous
                types.append(PostgresDataType(oid: UInt32(PQftype(handle, column))))
            }
        }
        self.names = names
        self.indexes = indexes
        self.types = types
        self.nameBytes = bytes
    }

    /// True when `handle`'s columns are these: the same count, names and types.
    func matches(_ handle: OpaquePointer) -> Bool {
        let count = PQnfields(handle)
        guard Int(count) == types.count else { return false }
        for column in 0..<count {
            guard UInt32(PQftype(handle, column)) == types[Int(column)].oid,
                Self.equal(PQfname(handle, column), nameBytes[Int(column)])
            else { return false }
        }
        return true
    }

    private static func equal(_ name: UnsafeMutablePointer<CChar>?, _ bytes: [UInt8]) -> Bool {
        guard let name else { return bytes.isEmpty }
        var index = 0
        while true {
            let byte = UInt8(bitPattern: name[index])
            if byte == 0 { return index == bytes.count }
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
    }

    /// The layouts one connection has seen, by a hash of the column names and types (FNV-1a):
    /// a result of a known shape gets its layout without allocating. Bounded: it starts over
    /// beyond `limit` layouts (a connection runs a few dozen statements).
    struct Cache {
        private var layouts: [UInt64: [PostgresColumns]] = [:]
        private var count = 0
        static let limit = 512

        mutating func layout(of handle: OpaquePointer) -> PostgresColumns {
            let key = Self.hash(handle)
            if let known = layouts[key]?.first(where: { $0.matches(handle) }) { return known }
            if count >= Self.limit {
                layouts = [:]
                count = 0
            }
            let built = PostgresColumns(of: handle)
            layouts[key, default: []].append(built)
            count += 1
            return built
        }

        private static func hash(_ handle: OpaquePointer) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            func mix(_ byte: UInt8) {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            let count = PQnfields(handle)
            for column in 0..<max(count, 0) {
                let type = UInt32(PQftype(handle, column))
                for shift in stride(from: 0, to: 32, by: 8) { mix(UInt8(truncatingIfNeeded: type >> shift)) }
                if let name = PQfname(handle, column) {
                    var index = 0
                    while name[index] != 0 {
                        mix(UInt8(bitPattern: name[index]))
                        index += 1
                    }
                }
                mix(0)
            }
            return hash
        }
    }
}
