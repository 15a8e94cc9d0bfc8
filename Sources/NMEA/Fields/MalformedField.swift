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

    /// A number outside `range` in field `fieldIndex`. (Made out of line, as is the noting of
    /// every problem: see `note(_:)` below.)
    @inline(never)
    static func outOfRange(_ fieldIndex: Int, _ range: ClosedRange<Double>) -> MalformedField {
        MalformedField(fieldIndex, expected: "a number from \(range.lowerBound) to \(range.upperBound)")
    }

    /// A letter field holding neither `first` nor `second`.
    @inline(never)
    static func notLetter(_ fieldIndex: Int, _ first: UInt8, _ second: UInt8, expected: String) -> MalformedField {
        let letters = first == second ? "\(Character(Unicode.Scalar(first)))"
            : "\(Character(Unicode.Scalar(first)))/\(Character(Unicode.Scalar(second)))"
        return MalformedField(fieldIndex, expected: "\(expected) \(letters)")
    }

    /// `field N: expected …`.
    public var description: String { "field \(fieldIndex): \(error)" }
}

/// The former name, from when one bad field rejected its whole sentence.
@available(*, deprecated, renamed: "MalformedField")
public typealias MalformedSentence = MalformedField

extension [MalformedField] {
    /// Notes `error`. Out of line: every field of every sentence type reads through
    /// ``reading(_:)``, and the array's growth, inlined at each, made the sentence decoders
    /// several kilobytes larger; code that does not fit the instruction cache costs decoding
    /// time on every sentence, whether the error path runs or not (`Benchmarks/README.md`).
    @inline(never)
    mutating func note(_ error: MalformedField) {
        append(error)
    }

    /// The value `read` gives, or `nil` with its problem noted here when the field is
    /// malformed: how a sentence type reads each of its fields on its own.
    @inline(__always)
    mutating func reading<Value>(_ read: @autoclosure () throws(MalformedField) -> Value?) -> Value? {
        do {
            return try read()
        } catch {
            note(error)
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
            note(error)
            return nil
        }
    }

    /// Notes a problem found across fields (a date whose day does not exist in its month).
    mutating func note(_ fieldIndex: Int, expected: String) {
        append(MalformedField(fieldIndex: fieldIndex, error: FieldError(expected: expected)))
    }
}
