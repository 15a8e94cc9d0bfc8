/// A field of a checksum-valid sentence that is not what the sentence type says it holds.
///
/// A malformed field does not cost its sentence: the field decodes as `nil` (with the field it
/// only means something with, such as a latitude's hemisphere), the problem is reported as a
/// ``RejectReason/malformedField`` reject naming the sentence and the field, and the rest of
/// the sentence is decoded and used.
public struct MalformedField: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending field's index (1 is the first field after the address).
    public var fieldIndex: Int
    /// What the field should have held.
    public var error: FieldError

    /// Creates the problem for field `fieldIndex`.
    public init(fieldIndex: Int, error: FieldError) {
        self.fieldIndex = fieldIndex
        self.error = error
    }

    /// The problem for field `fieldIndex`, which should have held what `expected` says.
    public init(_ fieldIndex: Int, expected: String) {
        self.init(fieldIndex: fieldIndex, error: FieldError(expected: expected))
    }

    /// `field N: expected …`.
    public var description: String { "field \(fieldIndex): \(error)" }
}

/// The former name, from when one bad field rejected its whole sentence.
@available(*, deprecated, renamed: "MalformedField")
public typealias MalformedSentence = MalformedField

extension [MalformedField] {
    /// The value `read` gives, or `nil` with its problem noted here when the field is
    /// malformed: how a sentence type reads each of its fields on its own.
    @inline(__always)
    mutating func reading<Value>(_ read: @autoclosure () throws(MalformedField) -> Value?) -> Value? {
        do {
            return try read()
        } catch {
            append(error)
            return nil
        }
    }

    /// A value and the field after it that says what it is (a hemisphere, a direction, a
    /// unit), which only mean something together: each is read and noted here on its own, and
    /// the pair is `nil` unless both are good. `combine` makes the value from the two (it may
    /// throw, naming the field, when the value needs a qualifier that is empty).
    @inline(__always)
    mutating func reading<Value, Qualifier>(
        _ value: @autoclosure () throws(MalformedField) -> Value?,
        qualifiedBy qualifier: @autoclosure () throws(MalformedField) -> Qualifier?,
        _ combine: (Value, Qualifier?) throws(MalformedField) -> Value
    ) -> Value? {
        let before = count
        let value = reading(try value())
        let qualifier = reading(try qualifier())
        guard count == before, let value else { return nil }
        do {
            return try combine(value, qualifier)
        } catch {
            append(error)
            return nil
        }
    }

    /// Notes a problem found across fields (a date whose day does not exist in its month).
    mutating func note(_ fieldIndex: Int, expected: String) {
        append(MalformedField(fieldIndex: fieldIndex, error: FieldError(expected: expected)))
    }
}
