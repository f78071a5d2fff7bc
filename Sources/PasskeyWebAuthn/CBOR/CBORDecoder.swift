/// A strict CBOR decoder (RFC 8949) for attestation objects, COSE keys and extensions.
///
/// Definite lengths only; nesting limited to `maximumDepth`; every declared length is
/// checked against the bytes that remain *before* anything is allocated, so memory is
/// bounded by the input size; duplicate map keys are refused. It never traps on any input.
package struct CBORDecoder: Sendable {
    /// Deepest nesting of arrays, maps and tags accepted.
    package var maximumDepth: Int
    /// Longest byte or text string accepted.
    package var maximumStringLength: Int

    package init(maximumDepth: Int = 16, maximumStringLength: Int = 64 * 1024) {
        self.maximumDepth = maximumDepth
        self.maximumStringLength = maximumStringLength
    }

    /// Decodes one item that must use all of `bytes`.
    package func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes[...])
        guard consumed == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the first item of `bytes` and reports how many bytes it used
    /// (the COSE key in authenticator data is followed by extensions).
    package func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        var reader = CBORReader(bytes: bytes)
        let value = try item(&reader, depth: 0)
        return (value, reader.offset)
    }

    private func item(_ reader: inout CBORReader, depth: Int) throws(CBORError) -> CBORValue {
        let initial = try reader.byte()
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 { return try simple(&reader, info: info) }
        let argument = try reader.argument(info: info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try string(&reader, length: argument))
        case 3:
            let raw = try string(&reader, length: argument)
            guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            guard depth < maximumDepth else { throw .tooDeep }
            // Each element needs at least one byte: refuse impossible counts before reserving.
            guard argument <= UInt64(reader.remaining) else { throw .lengthTooLarge }
            var elements: [CBORValue] = []
            elements.reserveCapacity(Int(argument))
            for _ in 0..<argument { elements.append(try item(&reader, depth: depth + 1)) }
            return .array(elements)
        case 5:
            guard depth < maximumDepth else { throw .tooDeep }
            guard argument <= UInt64(reader.remaining / 2) else { throw .lengthTooLarge }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(Int(argument))
            var keys = Set<CBORValue>()
            for _ in 0..<argument {
                let key = try item(&reader, depth: depth + 1)
                guard keys.insert(key).inserted else { throw .duplicateMapKey }
                entries.append(CBORMapEntry(key: key, value: try item(&reader, depth: depth + 1)))
            }
            return .map(entries)
        default:  // 6: tag
            guard depth < maximumDepth else { throw .tooDeep }
            return .tagged(argument, try item(&reader, depth: depth + 1))
        }
    }

    private func string(_ reader: inout CBORReader, length: UInt64) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(maximumStringLength) else { throw .lengthTooLarge }
        return try reader.take(Int(length))
    }

    private func simple(_ reader: inout CBORReader, info: UInt8) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            _ = try reader.byte()
            throw .unsupportedSimpleValue
        case 25: return .float(Double(Float16Bits.decode(UInt16(try reader.bigEndian(2)))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try reader.bigEndian(4)))))
        case 27: return .float(Double(bitPattern: try reader.bigEndian(8)))
        case 31: throw .indefiniteLength
        case 28...30: throw .reservedEncoding
        default: throw .unsupportedSimpleValue
        }
    }
}
