import CPlatform

// libm, for the geodesy and the magnetic model. The one place outside this target that
// needs the C library for arithmetic reaches it through these, so that only `Platform`
// imports the C library.

/// The sine of `x` radians.
@inlinable package func sin(_ x: Double) -> Double { CPlatform.sin(x) }
/// The cosine of `x` radians.
@inlinable package func cos(_ x: Double) -> Double { CPlatform.cos(x) }
/// The tangent of `x` radians.
@inlinable package func tan(_ x: Double) -> Double { CPlatform.tan(x) }
/// The arc sine of `x`, in radians.
@inlinable package func asin(_ x: Double) -> Double { CPlatform.asin(x) }
/// The arc tangent of `x`, in radians.
@inlinable package func atan(_ x: Double) -> Double { CPlatform.atan(x) }
/// The angle of the point (`x`, `y`) from the x axis, in radians (−π...π).
@inlinable package func atan2(_ y: Double, _ x: Double) -> Double { CPlatform.atan2(y, x) }
/// `x` to the power `y`.
@inlinable package func pow(_ x: Double, _ y: Double) -> Double { CPlatform.pow(x, y) }
