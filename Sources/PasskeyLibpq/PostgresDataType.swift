/// A column's PostgreSQL type, by its OID (`PQftype`; a domain reports its base type). The
/// constants are the built-in types this package reads (`pg_type.oid`, fixed across versions).
package struct PostgresDataType: Sendable, Hashable, CustomStringConvertible {
    package let oid: UInt32

    package init(oid: UInt32) { self.oid = oid }

    package static let bool = Self(oid: 16)
    package static let bytea = Self(oid: 17)
    package static let name = Self(oid: 19)
    package static let int8 = Self(oid: 20)
    package static let int2 = Self(oid: 21)
    package static let int4 = Self(oid: 23)
    package static let text = Self(oid: 25)
    package static let float4 = Self(oid: 700)
    package static let float8 = Self(oid: 701)
    package static let textArray = Self(oid: 1009)
    package static let varcharArray = Self(oid: 1015)
    package static let bpchar = Self(oid: 1042)
    package static let varchar = Self(oid: 1043)
    package static let timestamptz = Self(oid: 1184)
    package static let uuid = Self(oid: 2950)

    package var description: String {
        switch self {
        case .bool: "bool"
        case .bytea: "bytea"
        case .name: "name"
        case .int8: "int8"
        case .int2: "int2"
        case .int4: "int4"
        case .text: "text"
        case .float4: "float4"
        case .float8: "float8"
        case .textArray: "text[]"
        case .varcharArray: "varchar[]"
        case .bpchar: "bpchar"
        case .varchar: "varchar"
        case .timestamptz: "timestamptz"
        case .uuid: "uuid"
        default: "type \(oid)"
        }
    }
}
