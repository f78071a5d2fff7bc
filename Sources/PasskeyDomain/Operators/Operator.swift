package import Foundation

/// (v4) What an operator may do (spec v4, "Support desk"): `viewer` reads (adoption, accounts,
/// activity, events); `support` also acts on accounts; `admin` also manages webhooks. Each role
/// includes the ones before it.
package enum OperatorRole: String, CaseIterable, Hashable, Sendable, Comparable {
    case viewer
    case support
    case admin

    /// Whether this role may do what `required` may.
    package func includes(_ required: OperatorRole) -> Bool { self >= required }

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// (v4) A named operator of the support desk. The name is what the user sees as the actor of an
/// action ("by support (NAME)"): 1–64 printable code points. Its token is never kept, only the
/// token's digest (in the repository).
package struct Operator: Hashable, Sendable {
    /// The name `OPERATOR_TOKEN` acts under (an admin); no stored operator may take it.
    package static let configuredName = "operator"

    package let name: SupportAgentName
    package let role: OperatorRole
    package let createdAt: Date?

    package init(name: SupportAgentName, role: OperatorRole, createdAt: Date?) {
        self.name = name
        self.role = role
        self.createdAt = createdAt
    }
}
