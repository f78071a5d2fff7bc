/// One DER element (X.690 §8.1): its identifier octet, tag number and contents.
struct DERElement: Hashable {
    /// Universal tags WebAuthn reads.
    static let boolean: UInt8 = 0x01
    static let integer: UInt8 = 0x02
    static let octetString: UInt8 = 0x04
    static let null: UInt8 = 0x05
    static let objectIdentifier: UInt8 = 0x06
    static let enumerated: UInt8 = 0x0a
    static let utf8String: UInt8 = 0x0c
    static let printableString: UInt8 = 0x13
    static let ia5String: UInt8 = 0x16
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31

    /// The first identifier octet: class (bits 8–7), constructed (bit 6), low tag bits.
    let identifier: UInt8
    /// The tag number (may exceed 30 in high-tag-number form, e.g. Android's `[702]`).
    let tagNumber: UInt32
    let contents: [UInt8]

    /// Whether this is a universal element with the one-octet identifier `tag`.
    func hasTag(_ tag: UInt8) -> Bool { identifier == tag && tagNumber < 0x1f }

    /// Whether this is a context-specific `[number]` element (primitive or constructed).
    func isContextSpecific(_ number: UInt32) -> Bool { identifier & 0xc0 == 0x80 && tagNumber == number }

    /// The value of an INTEGER or ENUMERATED that fits in 63 bits (two's complement), else nil.
    var smallInteger: Int? {
        guard hasTag(Self.integer) || hasTag(Self.enumerated), let first = contents.first, contents.count <= 8
        else { return nil }
        // DER: minimal encoding.
        if contents.count > 1, let second = contents.dropFirst().first {
            if first == 0x00 && second & 0x80 == 0 { return nil }
            if first == 0xff && second & 0x80 != 0 { return nil }
        }
        var value = first & 0x80 == 0 ? 0 : -1
        for byte in contents { value = value << 8 | Int(byte) }
        return value
    }

    /// The dotted form of an OBJECT IDENTIFIER (e.g. `2.23.133.8.3`), else nil.
    var objectIdentifier: String? {
        guard hasTag(Self.objectIdentifier), !contents.isEmpty, contents.count <= 64 else { return nil }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var groupLength = 0
        for byte in contents {
            if groupLength == 0 && byte == 0x80 { return nil }  // no leading zero groups
            groupLength += 1
            guard groupLength <= 8 else { return nil }
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
                groupLength = 0
            }
        }
        guard groupLength == 0, let first = arcs.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }

    /// The text of a UTF8String, PrintableString or IA5String, else nil.
    var string: String? {
        guard hasTag(Self.utf8String) || hasTag(Self.printableString) || hasTag(Self.ia5String) else { return nil }
        return String(validating: contents, as: UTF8.self)
    }
}
