import Foundation

/// A JSON value as parsed from text, keeping integers apart from other numbers (JSON Schema's
/// `integer` type needs that).
enum JSONValue: Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}

/// Checks a JSON value against the subset of JSON Schema (draft 2020-12) our schemas use:
/// `type`, `properties`, `required`, `additionalProperties: false`, `items`, `minItems`,
/// `maxItems`, `minimum`, `maximum`, `enum`, `const`, `pattern` and local `$ref`s into `$defs`.
/// Any other asserting keyword is reported as unsupported rather than silently ignored, so the
/// schema cannot drift beyond what this test helper really checks.
struct JSONSchemaValidator {
    private let root: [String: JSONValue]
    private static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]

    init(schemaText: String) throws {
        guard case .object(let root) = try JSONValue.parse(schemaText) else {
            throw SchemaError("a schema must be an object")
        }
        self.root = root
    }

    struct SchemaError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Every way `value` breaks the schema, as "path: problem" lines; empty when it conforms.
    func violations(of value: JSONValue) throws -> [String] {
        var found: [String] = []
        try check(value, against: root, at: "$", into: &found)
        return found
    }

    private func check(_ value: JSONValue, against schema: [String: JSONValue], at path: String, into found: inout [String]) throws {
        for (keyword, rule) in schema where !Self.annotations.contains(keyword) {
            switch (keyword, rule) {
            case ("$ref", .string(let reference)):
                let prefix = "#/$defs/"
                guard reference.hasPrefix(prefix), case .object(let defs)? = root["$defs"],
                      case .object(let target)? = defs[String(reference.dropFirst(prefix.count))]
                else { throw SchemaError("unresolvable $ref \(reference)") }
                try check(value, against: target, at: path, into: &found)
            case ("type", .string(let type)):
                if !Self.value(value, hasType: type) { found.append("\(path): expected \(type), got \(value)") }
            case ("properties", .object(let properties)):
                guard case .object(let members) = value else { continue }
                for (name, member) in members {
                    if case .object(let memberSchema)? = properties[name] {
                        try check(member, against: memberSchema, at: "\(path).\(name)", into: &found)
                    }
                }
            case ("required", .array(let names)):
                guard case .object(let members) = value else { continue }
                for case .string(let name) in names where members[name] == nil {
                    found.append("\(path): missing required key \(name)")
                }
            case ("additionalProperties", .bool(false)):
                guard case .object(let members) = value, case .object(let properties)? = schema["properties"] else { continue }
                for name in members.keys where properties[name] == nil {
                    found.append("\(path): unexpected key \(name)")
                }
            case ("items", .object(let itemSchema)):
                guard case .array(let items) = value else { continue }
                for (index, item) in items.enumerated() {
                    try check(item, against: itemSchema, at: "\(path)[\(index)]", into: &found)
                }
            case ("minItems", .number(let limit)):
                if case .array(let items) = value, Double(items.count) < limit { found.append("\(path): fewer than \(Int(limit)) items") }
            case ("maxItems", .number(let limit)):
                if case .array(let items) = value, Double(items.count) > limit { found.append("\(path): more than \(Int(limit)) items") }
            case ("minimum", .number(let limit)):
                if case .number(let number) = value, number < limit { found.append("\(path): \(number) is below \(limit)") }
            case ("maximum", .number(let limit)):
                if case .number(let number) = value, number > limit { found.append("\(path): \(number) is above \(limit)") }
            case ("enum", .array(let allowed)):
                if !allowed.contains(value) { found.append("\(path): \(value) is not one of \(allowed)") }
            case ("const", let expected):
                if value != expected { found.append("\(path): expected \(expected), got \(value)") }
            case ("pattern", .string(let pattern)):
                guard case .string(let string) = value else { continue }
                if string.range(of: pattern, options: .regularExpression) == nil {
                    found.append("\(path): \"\(string)\" does not match \(pattern)")
                }
            default:
                throw SchemaError("unsupported schema keyword \(keyword) at \(path)")
            }
        }
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
             ("number", .number):
            return true
        case ("integer", .number(let number)):
            return number.rounded() == number
        default:
            return false
        }
    }
}
