/// Header fields in order, as received or to be sent. Names are compared case-insensitively
/// (RFC 9110 §5.1), whatever their spelling: `fields["content-type"]` finds `Content-Type`.
package struct HTTPFields: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    package typealias Element = (name: String, value: String)

    private var storage: [Element]

    package init(_ fields: [Element] = []) { storage = fields }
    package init(arrayLiteral elements: Element...) { storage = elements }

    package var startIndex: Int { storage.startIndex }
    package var endIndex: Int { storage.endIndex }
    package subscript(position: Int) -> Element { storage[position] }

    /// The first value of the field `name`, nil when there is none.
    package subscript(name: String) -> String? {
        storage.first { Self.same($0.name, name) }?.value
    }

    /// Every value of the field `name`, in order.
    package func values(_ name: String) -> [String] {
        storage.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a field `name` is present.
    package func contains(_ name: String) -> Bool { storage.contains { Self.same($0.name, name) } }

    package mutating func append(_ field: Element) { storage.append(field) }

    package mutating func append(contentsOf fields: some Sequence<Element>) { storage.append(contentsOf: fields) }

    /// Removes every field `name`.
    package mutating func remove(_ name: String) { storage.removeAll { Self.same($0.name, name) } }

    /// Sets `name` to `value`, replacing every earlier field of that name.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        storage.append((name, value))
    }

    /// ASCII case-insensitive equality of two field names (names are tokens: ASCII only).
    static func same(_ a: String, _ b: String) -> Bool {
        let a = a.utf8
        let b = b.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
        }
    }
}
