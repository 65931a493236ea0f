/// A setting outside the range it may take. The description names the setting, the value
/// given and the allowed range, so the message alone tells the user what to change.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting's name as it appears in the API, e.g. "trajectoryLength".
    public var parameter: String
    /// The value given, as text.
    public var value: String
    /// The values allowed, e.g. "5...1000" or "≥ 0".
    public var allowedRange: String

    public init(parameter: String, value: String, allowedRange: String) {
        self.parameter = parameter
        self.value = value
        self.allowedRange = allowedRange
    }

    public var description: String { "\(parameter) must be in \(allowedRange) (got \(value))" }

    /// Throws unless `value` lies in `range`.
    static func check<Value: Comparable>(
        _ parameter: String, _ value: Value, in range: ClosedRange<Value>
    ) throws(ConfigurationError) {
        guard range.contains(value) else {
            throw ConfigurationError(parameter: parameter, value: "\(value)", allowedRange: "\(range)")
        }
    }

    /// Throws unless `value` is finite and in `range` (NaN fails every comparison, so it is
    /// checked apart).
    static func check(
        _ parameter: String, _ value: Double, in range: ClosedRange<Double>
    ) throws(ConfigurationError) {
        guard !value.isNaN, range.contains(value) else {
            throw ConfigurationError(parameter: parameter, value: "\(value)", allowedRange: "\(range)")
        }
    }
}
