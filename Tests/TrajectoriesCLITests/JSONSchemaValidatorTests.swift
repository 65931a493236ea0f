import Testing

/// The schema checks on real output are only as good as this helper, so it is tested too.
@Suite struct JSONSchemaValidatorTests {
    let validator: JSONSchemaValidator

    init() throws {
        validator = try JSONSchemaValidator(schemaText: """
            { "type": "object", "required": ["n", "tags"], "additionalProperties": false,
              "properties": {
                "n": { "type": "integer", "minimum": 1, "maximum": 3 },
                "tags": { "type": "array", "items": { "$ref": "#/$defs/tag" }, "minItems": 1 },
                "kind": { "enum": ["a", "b"] } },
              "$defs": { "tag": { "type": "string", "pattern": "^[a-z]+$" } } }
            """)
    }

    @Test("a conforming value has no violations")
    func accepts() throws {
        #expect(try validator.violations(of: .parse(#"{"n": 2, "tags": ["x"], "kind": "a"}"#)).isEmpty)
        #expect(try validator.violations(of: .parse(#"{"n": 1, "tags": ["x"]}"#)).isEmpty)
    }

    @Test("each kind of violation is reported", arguments: [
        #"{"tags": ["x"]}"#,                         // missing key
        #"{"n": 2.5, "tags": ["x"]}"#,               // not an integer
        #"{"n": 9, "tags": ["x"]}"#,                 // above maximum
        #"{"n": 2, "tags": []}"#,                    // too few items
        #"{"n": 2, "tags": ["X1"]}"#,                // pattern, through $ref
        #"{"n": 2, "tags": ["x"], "kind": "c"}"#,    // not in enum
        #"{"n": 2, "tags": ["x"], "extra": true}"#,  // additional key
        #"[1, 2]"#,                                   // wrong type
        #"{"n": true, "tags": ["x"]}"#,              // a boolean is not a number
    ])
    func rejects(json: String) throws {
        #expect(try !validator.violations(of: .parse(json)).isEmpty)
    }

    @Test("a keyword the helper does not check is refused, not ignored")
    func refusesUnknownKeywords() throws {
        let strict = try JSONSchemaValidator(schemaText: #"{ "type": "string", "format": "uuid" }"#)
        #expect(throws: JSONSchemaValidator.SchemaError.self) { try strict.violations(of: .string("x")) }
    }
}
