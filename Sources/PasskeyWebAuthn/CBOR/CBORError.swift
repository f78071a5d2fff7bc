/// Why bytes are not acceptable CBOR for this verifier.
package enum CBORError: Error, Hashable, Sendable {
    /// The input ended inside a data item.
    case truncated
    /// Indefinite-length strings, arrays or maps (refused: WebAuthn uses definite lengths).
    case indefiniteLength
    /// Additional information 28–30, or a break code outside an indefinite item.
    case reservedEncoding
    /// Nesting deeper than the decoder's limit.
    case tooDeep
    /// A declared length longer than the remaining input or the configured limit.
    case lengthTooLarge
    /// A text string that is not valid UTF-8.
    case invalidUTF8
    /// The same key twice in one map.
    case duplicateMapKey
    /// Bytes left over after the (single) expected item.
    case trailingBytes
    /// A simple value other than false, true, null, undefined (reserved or unassigned).
    case unsupportedSimpleValue
}
